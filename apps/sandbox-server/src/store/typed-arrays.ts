/** A copy of `array` with room for `size` elements, the new ones zero: how the store's typed tables grow. */
export function grownInt32(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}

/** As `grownInt32`, for times and other numbers past 32 bits. */
export function grownFloat64(array: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(size);
  bigger.set(array);
  return bigger;
}
