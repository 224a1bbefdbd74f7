import { expect, test } from '@playwright/test';
import { collectGarbage } from '../harness/memory';

/** Issue 21: a worker collects what a test of many requests left behind (harness/fixtures.ts), so a thorough run stays near 1 GiB. */
test('collectGarbage runs a full collection: an object nothing holds any more is gone after it, one still held stays', async () => {
  const held = { name: 'still held' };
  const made = () => ({ dropped: new WeakRef({ rows: new Array(10_000).fill('x') }), kept: new WeakRef(held) });
  const refs = made();
  // A WeakRef keeps its target alive until the current job ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  collectGarbage();
  expect(refs.dropped.deref()).toBeUndefined();
  expect(refs.kept.deref()).toBe(held);
});
