/**
 * The `k` best items under `better` (a strict "a ranks before b"), best first, without
 * sorting everything: a broad query at 10,000 tools matches thousands and returns ten.
 */
export function topK<T>(items: Iterable<T>, k: number, better: (a: T, b: T) => boolean): T[] {
  if (k <= 0) return [];
  // Min-heap by rank: heap[0] is the worst item kept.
  const heap: T[] = [];
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap, heap.length - 1, better);
    } else if (better(item, heap[0] as T)) {
      heap[0] = item;
      siftDown(heap, 0, better);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}

function siftUp<T>(heap: T[], i: number, better: (a: T, b: T) => boolean): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!better(heap[parent] as T, heap[i] as T)) return;
    swap(heap, i, parent);
    i = parent;
  }
}

function siftDown<T>(heap: T[], i: number, better: (a: T, b: T) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let worst = i;
    if (l < heap.length && better(heap[worst] as T, heap[l] as T)) worst = l;
    if (r < heap.length && better(heap[worst] as T, heap[r] as T)) worst = r;
    if (worst === i) return;
    swap(heap, i, worst);
    i = worst;
  }
}

function swap<T>(heap: T[], a: number, b: number): void {
  const t = heap[a] as T;
  heap[a] = heap[b] as T;
  heap[b] = t;
}
