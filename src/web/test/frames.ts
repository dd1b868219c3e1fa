/** Lets `count` animation frames pass: a network's time that a hand-over of the keyboard must outlast. */
export async function waitFrames(count: number): Promise<void> {
  for (let frame = 0; frame < count; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
}
