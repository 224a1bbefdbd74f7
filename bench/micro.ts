import fc from 'fast-check';
import { contract } from '../contract/openapi';
import { operationOf } from '../contract/operations';
import { anyOrder } from '../generators/order';
import { invalidOrder } from '../generators/invalid';
import { anyOrderUpdate } from '../generators/update';
import { responseChecks } from '../checks/body';
import type { Exchange } from '../contract/exchange';
import { fullOrder, minimalOrder } from '../contract/examples';
import type { OrderStore } from '../reference/store';
import type { RecordedRequest } from './reference';
import { median, nowMs } from './stats';

/** Microseconds per call of `work` over `count` items, median of `repetitions` timed passes after a warm-up pass. */
function microsecondsPer(count: number, work: () => void, repetitions: number, minPassMs: number): number {
  work();
  const samples: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    let passes = 0;
    const started = nowMs();
    do {
      work();
      passes++;
    } while (nowMs() - started < minPassMs);
    samples.push(((nowMs() - started) * 1000) / (passes * count));
  }
  return median(samples);
}

export interface ValidationCost {
  /** Real responses of the recorded quick run that have a schema to check. */
  responses: number;
  /** ajv alone: the compiled validator of the operation and status (contract().response(…).problems). */
  ajvMicroseconds: number;
  /** What the suite runs on every response (checks/body.ts responseChecks: JSON, meta.status, schema, list summaries). */
  responseChecksMicroseconds: number;
  /** ajv alone, per operation (a list of 100 summaries costs more than a get). */
  byOperation: Record<string, { responses: number; ajvMicroseconds: number }>;
}

/** Validation cost on the responses the reference server really sent during a recorded suite run. */
export function validationCost(recorded: RecordedRequest[], repetitions: number, minPassMs: number): ValidationCost {
  const corpus = recorded.flatMap((request) => {
    const operationId = operationOf(request.method, request.url);
    const check = operationId && contract().response(operationId, request.status);
    if (!operationId || !check || request.responseText === undefined) return [];
    const exchange: Exchange = {
      operationId,
      request: { method: request.method, url: request.url, path: request.url, headers: {} },
      status: request.status,
      headers: request.responseContentType ? { 'content-type': request.responseContentType } : {},
      text: request.responseText,
      json: parseOrUndefined(request.responseText),
      retries: 0,
    };
    return exchange.json === undefined ? [] : [{ operationId, check, exchange }];
  });
  const ajv = (items: typeof corpus) => () => {
    for (const { check, exchange } of items) check.problems(exchange.json);
  };
  const byOperation: ValidationCost['byOperation'] = {};
  for (const operationId of [...new Set(corpus.map((entry) => entry.operationId))].sort()) {
    const items = corpus.filter((entry) => entry.operationId === operationId);
    byOperation[operationId] = { responses: items.length, ajvMicroseconds: microsecondsPer(items.length, ajv(items), repetitions, minPassMs / 2) };
  }
  return {
    responses: corpus.length,
    ajvMicroseconds: microsecondsPer(corpus.length, ajv(corpus), repetitions, minPassMs),
    responseChecksMicroseconds: microsecondsPer(
      corpus.length,
      () => {
        for (const { exchange } of corpus) responseChecks(exchange);
      },
      repetitions,
      minPassMs,
    ),
    byOperation,
  };
}

export interface GenerationCost {
  /** Payloads drawn per measurement. */
  payloads: number;
  /** Microseconds per payload, by source. */
  microseconds: Record<string, number>;
}

/** Cost of one request body: the fast-check arbitraries of generators/ (fc.sample), and the hand payloads for comparison. */
export function generationCost(payloads: number, repetitions: number, minPassMs: number): GenerationCost {
  const sample = (arbitrary: fc.Arbitrary<unknown>) => () => void fc.sample(arbitrary, { numRuns: payloads, seed: 42 });
  const hand = (make: () => unknown) => () => {
    for (let i = 0; i < payloads; i++) make();
  };
  const sources: Record<string, () => void> = {
    'generators anyOrder()': sample(anyOrder()),
    'generators anyOrderUpdate()': sample(anyOrderUpdate()),
    'generators invalidOrder()': sample(invalidOrder()),
    'contract/examples fullOrder()': hand(fullOrder),
    'contract/examples minimalOrder()': hand(minimalOrder),
  };
  const microseconds: Record<string, number> = {};
  for (const [name, work] of Object.entries(sources)) microseconds[name] = microsecondsPer(payloads, work, repetitions, minPassMs);
  return { payloads, microseconds };
}

export interface StoreCost {
  /** Microseconds per page() call, by store, then by "<orders in the account> orders, limit <n>". */
  microseconds: Record<string, Record<string, number>>;
}

/** page() of the reference store against the store before the fix, on accounts of each size, first page. */
export function storeCost(sizes: number[], stores: Record<string, () => OrderStore>, repetitions: number, minPassMs: number): StoreCost {
  const microseconds: StoreCost['microseconds'] = {};
  for (const [name, make] of Object.entries(stores)) {
    microseconds[name] = {};
    for (const size of sizes) {
      const store = make();
      for (let i = 0; i < size; i++) store.insert({ id: `order-${i}`, user_id: 'account', created_at: '', updated_at: '' });
      for (const limit of [1, 100]) {
        const batch = () => {
          for (let i = 0; i < 100; i++) store.page('account', 0, limit);
        };
        microseconds[name][`${size} orders, limit ${limit}`] = microsecondsPer(100, batch, repetitions, minPassMs / 4);
      }
    }
  }
  return { microseconds };
}

function parseOrUndefined(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
