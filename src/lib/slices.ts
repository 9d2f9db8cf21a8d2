/** Groups the items of an (async) iterable into arrays of `size` items (the last may be shorter). */
export async function* inSlices<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let slice: T[] = [];
  for await (const item of items) {
    slice.push(item);
    if (slice.length === size) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}
