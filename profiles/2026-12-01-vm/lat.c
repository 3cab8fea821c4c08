// lat MB HUGE BATCH: ns per batch of BATCH random cache-line loads (prefetched together, then read)
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <xmmintrin.h>
int main(int argc, char **argv) {
  size_t mb = atol(argv[1]); int huge = atoi(argv[2]); int batch = atoi(argv[3]); size_t group = argc > 4 ? atol(argv[4]) : 0;
  size_t bytes = mb << 20;
  char *raw = mmap(0, bytes + (2<<20), PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  char *p = (char *)(((uintptr_t)raw + (2<<20) - 1) & ~((uintptr_t)(2<<20) - 1));
  madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
  size_t lines = bytes / 64; uint64_t x = 88172645463325252ull, sum = 0;
  long iters = 2000000;
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  for (long it = 0; it < iters; it++) {
    size_t idx[64]; x ^= x << 13; x ^= x >> 7; x ^= x << 17; size_t base = group ? (x % (lines / group)) * group : 0;
    for (int k = 0; k < batch; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; idx[k] = group ? ((base + (x % group)) % lines) * 64 : (x % lines) * 64; _mm_prefetch(p + idx[k], _MM_HINT_T0); }
    for (int k = 0; k < batch; k++) sum += *(volatile uint64_t *)(p + idx[k] + (sum & 8));
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / iters;
  FILE *f = fopen("/proc/self/smaps_rollup", "r"); char line[256]; long ah = 0;
  while (fgets(line, sizeof line, f)) sscanf(line, "AnonHugePages: %ld", &ah);
  printf("%5zu MiB huge=%d batch=%2d group=%zu: %6.1f ns/batch  (AnonHuge %ld kB) %lu\n", mb, huge, batch, group, ns, ah, sum & 1);
  return 0;
}
