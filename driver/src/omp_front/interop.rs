//! The `interop` construct (OpenMP 5.1; OpenMP 5.2 section 14.1), refused at the directive:
//! clang 19 compiles it to calls of libomptarget's `__tgt_interop_init/use/destroy`, which
//! libptxrt does not have (it has no foreign runtime, such as a CUDA stream the program could
//! use, to describe), so without this check the program fails at the link with undefined
//! symbols that name no line of the user's source.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::offload_parallel_for::directive::Pragma;

/// The error for an `interop` pragma, or None for any other.
pub fn check(p: &Pragma, loc_of: &dyn Fn(usize) -> SourceLoc) -> Option<Diagnostic> {
    (p.words == ["interop"]).then(|| Diagnostic {
        loc: Some(loc_of(p.words_rel)),
        message: "ptxcc does not support the 'interop' construct: libptxrt has no foreign \
                  runtime objects (streams, contexts) to give; synchronise with 'taskwait' or \
                  the target construct's 'depend' and 'nowait' instead"
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interop_is_refused_at_the_directive() {
        let line = "  #pragma omp interop init(targetsync: obj) device(d)";
        let p = Pragma::for_test(line);
        let loc = |rel: usize| SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        };
        let d = check(&p, &loc).expect("an error");
        assert_eq!(d.loc.map(|l| l.col), Some(15));
        assert!(d.message.contains("'interop' construct"));
    }
}
