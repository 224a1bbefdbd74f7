import type { TestInfo } from '@playwright/test';
import { testKey } from './plan';

/** A test body as a spec file declares it: `async ({ api }) => { … }`. */
export type TestBody = (fixtures: Record<string, unknown>, testInfo: TestInfo) => unknown;

/** How the body of a test Playwright has reached is run: the scheduler's (harness/schedule/scheduler.ts). */
export type TakeTest = (body: TestBody, fixtures: Record<string, unknown>, testInfo: TestInfo) => Promise<void>;

/** The bodies read from the spec files a worker's plan names, by test key, before Playwright reaches them. */
const bodies = new Map<string, TestBody>();

/** Set while a spec file is read for its declarations (loadDeclarations): test() and describe() then only note what they declare. */
let loading: { fileTitle: string; describes: string[] } | undefined;

/**
 * Reads a spec file for the bodies of its tests, without declaring them to Playwright, so a worker can run a
 * body before Playwright reaches its test: the file is required with test() and describe() noting what they
 * declare, then dropped from the module cache, so that Playwright's own load of it declares its tests as always.
 */
export function loadDeclarations(file: string, fileTitle: string): void {
  const resolved = require.resolve(file);
  delete require.cache[resolved];
  loading = { fileTitle, describes: [] };
  try {
    require(resolved);
  } finally {
    loading = undefined;
    delete require.cache[resolved];
  }
}

/** The body of the test of this key, as loadDeclarations read it. */
export function declaredBody(key: string): TestBody | undefined {
  return bodies.get(key);
}

type Declare = (title: string, detailsOrBody: unknown, body?: unknown) => void;

/**
 * Playwright's test() as the suite's spec files use it, each body handed to `take` when Playwright reaches its
 * test, and noted by loadDeclarations while a file is read for its declarations. Playwright hooks are refused:
 * a body run ahead of its test would run without them.
 */
export function declaringTests<T>(playwrightTest: T, take: TakeTest): T {
  const playwright = playwrightTest as unknown as Declare & { describe: Declare };
  const declare = function test(title: string, detailsOrBody: unknown, body?: unknown): void {
    const [details, fn] = typeof detailsOrBody === 'function' ? [undefined, detailsOrBody as TestBody] : [detailsOrBody, body as TestBody];
    if (loading) {
      bodies.set(testKey([loading.fileTitle, ...loading.describes, title]), fn);
      return;
    }
    const taker = (fixtures: Record<string, unknown>, testInfo: TestInfo) => take(fn, fixtures, testInfo);
    // Playwright reads the fixtures a test asks for from its body's parameter list.
    taker.toString = () => fn.toString();
    const restore = locatingCaller(playwright);
    try {
      if (details === undefined) playwright(title, taker);
      else playwright(title, details, taker);
    } finally {
      restore();
    }
  };
  const describe = function describe(title: string, detailsOrBody: unknown, body?: unknown): void {
    const fn = (typeof detailsOrBody === 'function' ? detailsOrBody : body) as () => void;
    if (loading) {
      const { describes } = loading;
      describes.push(title);
      try {
        fn();
      } finally {
        describes.pop();
      }
      return;
    }
    const restore = locatingCaller(playwright.describe);
    try {
      playwright.describe(title, detailsOrBody, body);
    } finally {
      restore();
    }
  };
  const refused = (name: string) => () => {
    throw new Error(`test.${name}() is not used in the suite's tests: a body the scheduler runs ahead of its test would run without it (harness/schedule/scheduler.ts). Do the work in the body.`);
  };
  return Object.assign(declare, playwright, {
    describe: Object.assign(describe, playwright.describe),
    beforeEach: refused('beforeEach'),
    afterEach: refused('afterEach'),
    beforeAll: refused('beforeAll'),
    afterAll: refused('afterAll'),
  }) as unknown as T;
}

/**
 * Playwright takes a test's location (file and line: the replay command, `playwright test file:line`) from the frame
 * that called its test() or describe(): called from a wrapper, that frame would be the wrapper's. While the one
 * call to `playwrightFn` is made, its stack is captured from the frame that called the wrapper (V8's
 * captureStackTrace leaves out every frame up to the function given; selftest/declarations.test.ts holds it).
 */
function locatingCaller(playwrightFn: Function): () => void {
  const capture = Error.captureStackTrace;
  Error.captureStackTrace = (target: object, constructorOpt?: Function) => capture.call(Error, target, constructorOpt ?? playwrightFn);
  return () => {
    Error.captureStackTrace = capture;
  };
}
