//! Sets of byte ranges: sorted, disjoint, never touching (adjacent ranges are merged), so two
//! sets holding the same bytes are equal and a set is as short as it can be.

use std::fmt;

/// The bytes `[start, end)` (offsets in one host array).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: u64,
    pub end: u64,
}

impl Span {
    /// `[start, end)`; empty when `end <= start`.
    pub fn new(start: u64, end: u64) -> Span {
        Span {
            start,
            end: end.max(start),
        }
    }

    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {})", self.start, self.end)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeSet {
    spans: Vec<Span>,
}

impl RangeSet {
    pub fn new() -> RangeSet {
        RangeSet::default()
    }

    /// The set of one span (empty if the span is).
    pub fn of(span: Span) -> RangeSet {
        let mut s = RangeSet::new();
        s.insert(span);
        s
    }

    /// The union of any spans.
    pub fn from_spans(spans: impl IntoIterator<Item = Span>) -> RangeSet {
        let mut s = RangeSet::new();
        for span in spans {
            s.insert(span);
        }
        s
    }

    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// How many bytes the set holds.
    pub fn bytes(&self) -> u64 {
        self.spans.iter().map(Span::len).sum()
    }

    /// Adds `span`, merging it with the spans it overlaps or touches.
    pub fn insert(&mut self, span: Span) {
        if span.is_empty() {
            return;
        }
        // The first span that ends at or after span.start may merge; so may every following
        // span that starts at or before span.end.
        let first = self.spans.partition_point(|s| s.end < span.start);
        let last = self.spans.partition_point(|s| s.start <= span.end);
        let mut merged = span;
        if first < last {
            merged.start = merged.start.min(self.spans[first].start);
            merged.end = merged.end.max(self.spans[last - 1].end);
        }
        self.spans.splice(first..last, [merged]);
    }

    /// Removes the bytes of `span`.
    pub fn remove(&mut self, span: Span) {
        if span.is_empty() {
            return;
        }
        let first = self.spans.partition_point(|s| s.end <= span.start);
        let last = self.spans.partition_point(|s| s.start < span.end);
        if first >= last {
            return;
        }
        let mut kept = Vec::with_capacity(2);
        let (head, tail) = (self.spans[first], self.spans[last - 1]);
        if head.start < span.start {
            kept.push(Span::new(head.start, span.start));
        }
        if tail.end > span.end {
            kept.push(Span::new(span.end, tail.end));
        }
        self.spans.splice(first..last, kept);
    }

    pub fn union(&self, other: &RangeSet) -> RangeSet {
        let mut s = self.clone();
        for &span in &other.spans {
            s.insert(span);
        }
        s
    }

    /// The bytes of `self` that are not in `other`.
    pub fn subtract(&self, other: &RangeSet) -> RangeSet {
        let mut s = self.clone();
        for &span in &other.spans {
            s.remove(span);
        }
        s
    }

    /// The bytes in both.
    pub fn intersect(&self, other: &RangeSet) -> RangeSet {
        let (mut i, mut j) = (0, 0);
        let mut out = RangeSet::new();
        while i < self.spans.len() && j < other.spans.len() {
            let (a, b) = (self.spans[i], other.spans[j]);
            let s = Span::new(a.start.max(b.start), a.end.min(b.end));
            if !s.is_empty() {
                out.spans.push(s);
            }
            if a.end <= b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        out
    }

    /// Does the set hold every byte of `span`?
    pub fn contains(&self, span: Span) -> bool {
        span.is_empty() || {
            let i = self.spans.partition_point(|s| s.end <= span.start);
            self.spans
                .get(i)
                .is_some_and(|s| s.start <= span.start && span.end <= s.end)
        }
    }
}

impl fmt::Display for RangeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.spans.is_empty() {
            return write!(f, "{{}}");
        }
        for (i, s) in self.spans.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}
