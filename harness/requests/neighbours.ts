import { explanationOf, nextNeighbour, withNeighbour, withNeighbourAnswer, withNeighbourAnswersOf, type Circumstances, type SentValue } from '../../checks/readings';
import { isSuccess } from '../../checks/status';
import type { Exchange } from '../../contract/exchange';
import type { OmsApi } from './api';
import { together } from './together';

/**
 * A taken answer to judge by the readings of the values its request carried, and how a control request for it is
 * sent: the same request with a value's defined neighbour in its place (checks/readings.ts withNeighbour).
 */
export interface ReadAnswer {
  values: readonly SentValue[];
  /** The body sent, as it denotes (each control is this body with one neighbour put in). */
  body: unknown;
  /** The answer: judged by its values' readings where it was taken (a 2xx); a refusal needs no control. */
  answer: Exchange;
  circumstances?: Circumstances;
  /** Sends one control request; undefined where none could be sent (no twin order to send an update to). */
  control(body: unknown): Promise<Exchange | undefined>;
}

/**
 * The circumstances of each answer with what the same service answered to the neighbours its values needed: sent only
 * for a value no fixed reading explains, one neighbour at a time, the controls of every answer side by side in each
 * round (a service the fixed readings explain gets no control; one whose first neighbour explains, one per value).
 */
export async function withNeighbourAnswers(read: readonly ReadAnswer[]): Promise<Circumstances[]> {
  const circumstances = read.map(({ circumstances: known = {} }) => known);
  for (;;) {
    const asked = read.flatMap(({ values, answer }, index) =>
      (isSuccess(answer.status) ? values : []).flatMap((value) => {
        const neighbour = nextNeighbour(value, answer.json, circumstances[index]);
        return neighbour === undefined ? [] : [{ index, value, neighbour }];
      }),
    );
    if (asked.length === 0) return circumstances;
    const answers = await together(asked.map(({ index, value, neighbour }) => read[index].control(withNeighbour(read[index].body, value, neighbour))));
    asked.forEach(({ index, value, neighbour }, at) => {
      const control = answers[at];
      circumstances[index] = withNeighbourAnswer(circumstances[index], value.pointer, neighbour, control && isSuccess(control.status) ? control.json : undefined);
    });
  }
}

/**
 * The circumstances of gets that read back judged writes (each `read` is the get's answer, with the write's control
 * and circumstances): where neither a fixed reading nor the write's controls explain what the get shows (a service
 * that stamps on the way to storage what its write answer left empty), the same controls are read back through a
 * get. A get the write's circumstances explain costs no request.
 */
export async function withNeighbourAnswersReadBack(api: OmsApi, read: readonly ReadAnswer[]): Promise<Circumstances[]> {
  const onGet = await withNeighbourAnswers(
    read.map((one) => ({
      ...one,
      values: one.values.filter((value) => explanationOf(value, one.answer.json, one.circumstances) === undefined),
      circumstances: { before: one.circumstances?.before },
      control: readBack(api, one.control),
    })),
  );
  return read.map(({ circumstances = {} }, index) => withNeighbourAnswersOf(circumstances, onGet[index]));
}

/** A control write, then a get of the order it wrote: what the service stores for the control, as a get shows it. */
function readBack(api: OmsApi, control: ReadAnswer['control']): ReadAnswer['control'] {
  return async (body) => {
    const written = await control(body);
    const id = written && isSuccess(written.status) ? (written.json as { id?: unknown } | undefined)?.id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? api.get(String(id)) : undefined;
  };
}

/** A control create: the body with the neighbour in place, sent as a create. */
export function controlCreate(api: OmsApi): (body: unknown) => Promise<Exchange> {
  return (body) => api.create(body);
}

/**
 * A control update: a twin order made as the judged one was (`twin`: a create in the same state), then the update with
 * the neighbour in place sent to it, so a service that clears what an update omits shows what it clears to.
 */
export function controlUpdate(api: OmsApi, twin: () => Promise<Exchange>): (body: unknown) => Promise<Exchange | undefined> {
  return async (body) => {
    const made = await twin();
    const id = (made.json as { id?: unknown } | undefined)?.id;
    if (!isSuccess(made.status) || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
    return api.update(String(id), body);
  };
}
