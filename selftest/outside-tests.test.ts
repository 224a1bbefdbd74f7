import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../contract/exchange';
import { cleanedUp, judgeOutsideTests, noteCleanedUp, outsideTestsFile, takeOutsideFindings } from '../harness/record/outside-tests';

// Issue 28, item 5: an exchange no test made (the cleanup's deletes, the preflight, a token renewal) is held to
// what every response must be, and what it broke reaches the report under where it was met.

const deleteAnswer = (contentType: string, text: string): Exchange => ({
  operationId: 'deleteOrder',
  request: { method: 'DELETE', url: 'http://127.0.0.1/orders/a', path: '/orders/a', headers: {} },
  status: 200,
  headers: { 'content-type': contentType },
  text,
  json: contentType.includes('json') ? JSON.parse(text) : undefined,
  retries: 0,
});

test('a violation outside any test is kept for the report under where it was met, once; a conformant answer leaves nothing', () => {
  const runId = `outside-${process.pid}-${Date.now()}`;
  judgeOutsideTests("the worker's cleanup", deleteAnswer('application/json', '{"success":true,"message":"Order deleted"}'), runId);
  expect(existsSync(outsideTestsFile(runId))).toBe(false);
  judgeOutsideTests("the worker's cleanup", deleteAnswer('text/html', '<p>Order archived.</p>'), runId);
  const found = takeOutsideFindings(runId);
  expect(found.map(({ where, record }) => [where, record.requirementId, record.response?.status])).toEqual([["the worker's cleanup", 'ORD-GEN-001', 200]]);
  expect(takeOutsideFindings(runId)).toEqual([]);
});

test("a project's end waits for its worker's cleanup, and no longer than it is told", async () => {
  const runId = `outside-cleanup-${process.pid}-${Date.now()}`;
  expect(await cleanedUp(runId, 100)).toBe(false);
  noteCleanedUp(runId);
  expect(await cleanedUp(runId, 100)).toBe(true);
});
