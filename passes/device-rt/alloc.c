/*
 * Device-side OpenMP allocators (OpenMP 5.2 §6.2, §18.13), which the allocators pass
 * (passes/src/device_allocators.rs) calls in place of omp_alloc & co. Compiled by passes/build.rs
 * with clang-19 for nvptx64 into bitcode that ptxcc links into device modules that need it.
 *
 * Every allocation comes from the device heap (malloc: the CUDA driver's heap on a GPU, the
 * host's in the emulator), which serves every memory space. A header before the memory the
 * program gets records what free and realloc need whatever allocator argument they are given
 * (omp_free may name omp_null_allocator): the block malloc returned, the size asked for and the
 * allocator. Alignment comes from rounding up inside a larger block.
 *
 * A predefined allocator is a small handle (omp_null_allocator = 0, omp_default_mem_alloc = 1 …
 * llvm_omp_target_device_mem_alloc = 102); a user-defined one (omp_init_allocator, or
 * uses_allocators(a(traits)) on a target construct) is the address of its traits on the device
 * heap. Of the traits, alignment, pool_size and fallback (with fb_data) change what an
 * allocation gives; sync_hint, access, pinned and partition are satisfied by the device heap
 * whatever their value.
 */
typedef unsigned long u64;

void *malloc(u64);
void free(void *);

/* omp_alloctrait_key_t and the values ptxcc looks at (clang's omp.h). */
enum { ATK_SYNC_HINT = 1, ATK_ALIGNMENT, ATK_ACCESS, ATK_POOL_SIZE, ATK_FALLBACK, ATK_FB_DATA, ATK_PINNED, ATK_PARTITION };
enum { ATV_DEFAULT_MEM_FB = 11, ATV_NULL_FB = 12, ATV_ABORT_FB = 13, ATV_ALLOCATOR_FB = 14 };
#define ATV_DEFAULT ((u64)-1)

typedef struct {
  int key;
  u64 value;
} ptxcc_trait;

typedef struct {
  u64 align;    /* a power of two, at least 1 */
  u64 pool;     /* 0: no pool size given */
  u64 used;     /* bytes of the pool handed out (atomic) */
  u64 fallback; /* ATV_*_FB */
  u64 fb_data;  /* the allocator of ATV_ALLOCATOR_FB */
} ptxcc_allocator;

/* What precedes every allocation: 32 bytes, so that a 16-byte alignment is kept. */
typedef struct {
  void *block;
  u64 size;
  u64 allocator;
  u64 pad;
} ptxcc_header;

/* Handles below this are predefined allocators (and memory spaces); heap addresses are above. */
#define PTXCC_PREDEFINED_LIMIT 4096ul

static inline int is_user(u64 a) { return a >= PTXCC_PREDEFINED_LIMIT; }
static inline int pow2(u64 v) { return v != 0 && (v & (v - 1)) == 0; }

/*
 * omp_init_allocator(memspace, ntraits, traits) and clang's __kmpc_init_allocator for
 * uses_allocators: the new allocator, or omp_null_allocator where a trait has a value OpenMP
 * does not define for it (5.2 §18.13.2: the allocator cannot be created).
 */
u64 __ptxcc_omp_init_allocator(u64 memspace, int ntraits, const ptxcc_trait *traits) {
  (void)memspace;
  u64 align = 1, pool = 0, fallback = ATV_DEFAULT_MEM_FB, fb_data = 0;
  for (int i = 0; i < ntraits; i++) {
    u64 v = traits[i].value;
    switch (traits[i].key) {
    case ATK_ALIGNMENT:
      if (!pow2(v))
        return 0;
      align = v;
      break;
    case ATK_POOL_SIZE:
      if (v != ATV_DEFAULT)
        pool = v;
      break;
    case ATK_FALLBACK:
      if (v == ATV_DEFAULT)
        v = ATV_DEFAULT_MEM_FB;
      if (v < ATV_DEFAULT_MEM_FB || v > ATV_ALLOCATOR_FB)
        return 0;
      fallback = v;
      break;
    case ATK_FB_DATA:
      fb_data = v;
      break;
    case ATK_SYNC_HINT:
    case ATK_ACCESS:
    case ATK_PINNED:
    case ATK_PARTITION:
      break;
    default:
      return 0;
    }
  }
  if (fallback == ATV_ALLOCATOR_FB && fb_data == 0)
    return 0;
  ptxcc_allocator *a = (ptxcc_allocator *)malloc(sizeof(ptxcc_allocator));
  if (!a)
    return 0;
  a->align = align;
  a->pool = pool;
  a->used = 0;
  a->fallback = fallback;
  a->fb_data = fb_data;
  return (u64)a;
}

/* omp_destroy_allocator and __kmpc_destroy_allocator. */
void __ptxcc_omp_destroy_allocator(u64 allocator) {
  if (is_user(allocator))
    free((void *)allocator);
}

/* `size` bytes aligned to `align` (a power of two) from the heap, with the header before them. */
static void *heap_alloc(u64 size, u64 align, u64 allocator) {
  if (align < 16)
    align = 16;
  u64 extra = sizeof(ptxcc_header) + (align > 16 ? align : 0);
  if (size > ~0ul - extra)
    return 0;
  char *block = (char *)malloc(size + extra);
  if (!block)
    return 0;
  u64 at = ((u64)block + sizeof(ptxcc_header) + align - 1) & ~(align - 1);
  ptxcc_header *h = (ptxcc_header *)at - 1;
  h->block = block;
  h->size = size;
  h->allocator = allocator;
  return (void *)at;
}

/*
 * omp_aligned_alloc(align, size, allocator); align 0 for omp_alloc. NULL for a size of 0 and
 * where the allocator's pool is spent and its fallback is null_fb; abort_fb ends the program.
 */
void *__ptxcc_omp_alloc(u64 align, u64 size, u64 allocator) {
  if (size == 0 || (align != 0 && !pow2(align)))
    return 0;
  if (align == 0)
    align = 1;
  for (int depth = 0; is_user(allocator) && depth < 16; depth++) {
    ptxcc_allocator *a = (ptxcc_allocator *)allocator;
    u64 want = align > a->align ? align : a->align;
    int fits = 1;
    if (a->pool) {
      u64 before = __atomic_fetch_add(&a->used, size, __ATOMIC_RELAXED);
      if (before + size > a->pool || before + size < before) {
        __atomic_fetch_sub(&a->used, size, __ATOMIC_RELAXED);
        fits = 0;
      }
    }
    if (fits) {
      void *p = heap_alloc(size, want, allocator);
      if (p)
        return p;
      if (a->pool)
        __atomic_fetch_sub(&a->used, size, __ATOMIC_RELAXED);
    }
    switch (a->fallback) {
    case ATV_NULL_FB:
      return 0;
    case ATV_ABORT_FB:
      __builtin_trap();
    case ATV_ALLOCATOR_FB:
      allocator = a->fb_data;
      continue;
    default: /* default_mem_fb: omp_default_mem_alloc, keeping the alignment asked for */
      return heap_alloc(size, want, 1);
    }
  }
  return heap_alloc(size, align, allocator);
}

/* omp_aligned_calloc(align, nmemb, size, allocator), align 0 for omp_calloc: zeroed. */
void *__ptxcc_omp_calloc(u64 align, u64 nmemb, u64 size, u64 allocator) {
  if (size != 0 && nmemb > ~0ul / size)
    return 0;
  u64 bytes = nmemb * size;
  char *p = (char *)__ptxcc_omp_alloc(align, bytes, allocator);
  for (u64 i = 0; p && i < bytes; i++)
    p[i] = 0;
  return p;
}

/* omp_free(ptr, allocator): the header knows the allocator, whatever the argument says. */
void __ptxcc_omp_free(void *ptr) {
  if (!ptr)
    return;
  ptxcc_header *h = (ptxcc_header *)ptr - 1;
  if (is_user(h->allocator)) {
    ptxcc_allocator *a = (ptxcc_allocator *)h->allocator;
    if (a->pool)
      __atomic_fetch_sub(&a->used, h->size, __ATOMIC_RELAXED);
  }
  free(h->block);
}

/*
 * omp_realloc(ptr, size, allocator, free_allocator): a new block from `allocator` (the old
 * block's when omp_null_allocator) with the old contents up to the smaller size; the old block
 * is freed only where the new one was made.
 */
void *__ptxcc_omp_realloc(void *ptr, u64 size, u64 allocator, u64 free_allocator) {
  (void)free_allocator;
  if (!ptr)
    return __ptxcc_omp_alloc(0, size, allocator);
  if (size == 0) {
    __ptxcc_omp_free(ptr);
    return 0;
  }
  ptxcc_header *h = (ptxcc_header *)ptr - 1;
  if (allocator == 0)
    allocator = h->allocator;
  char *q = (char *)__ptxcc_omp_alloc(0, size, allocator);
  if (!q)
    return 0;
  u64 n = h->size < size ? h->size : size;
  for (u64 i = 0; i < n; i++)
    q[i] = ((const char *)ptr)[i];
  __ptxcc_omp_free(ptr);
  return q;
}
