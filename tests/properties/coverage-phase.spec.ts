import { apart, asUpdate, createEdgeBodies, orderCoverage, queryCoverage, updateEdges, type EdgeBody } from '../../generators/coverage';
import {
  createAccepted,
  createAcceptedFor,
  createAnswersWhatWasSent,
  distinctIds,
  getAccepted,
  getAnswersOrderAsked,
  idAssigned,
  refusalProvesNothing,
  storedAsSent,
  updateAccepted,
  updateAnswersWhatWasSent,
  updateVisibleOnGet,
} from '../../checks/orders';
import { acceptedUnlessRefusable, refusedUpdateLeftOrder } from '../../checks/invalid-input';
import { edgeMayBeRefused, edgesAnswered, edgesComeBack, type EdgesSent } from '../../checks/edges';
import { explanationOf, NEIGHBOUR_WORDS, type Circumstances } from '../../checks/readings';
import { summaryCarriesFullForm } from '../../checks/listing';
import { isSuccess } from '../../checks/status';
import { violationIn } from '../../checks/check';
import { check, ensure } from '../../harness/record/findings';
import { observe } from '../../harness/record/observe';
import { test } from '../../harness/fixtures';
import { findInList, judgedWhenSettled, listAnswerHolds } from '../../harness/requests/listing';
import { orderRequest, type OmsApi } from '../../harness/requests/api';
import { verifies } from '../../harness/record/verifies';
import { together } from '../../harness/requests/together';
import { controlCreate, controlUpdate, withNeighbourAnswers, withNeighbourAnswersReadBack } from '../../harness/requests/neighbours';
import { requestLine } from '../../contract/operations';
import { fullOrder, minimalOrder, withOwnReferences } from '../../contract/examples';
import type { Exchange, Json } from '../../contract/exchange';

// Runs before the generated tests (its file sorts first): the same cases every run, each one sent once.
const QUERIES = queryCoverage();
const ORDERS = orderCoverage();
const UPDATE_EDGES = updateEdges();

/** How each value the document does not define was read (ORD-OBS-034): refused, or the reading that explains what came back, and the neighbour whose answer showed it. */
function readingsSeen(sent: EdgesSent, answer: Exchange, circumstances: Circumstances = {}): string[] {
  return sent.cases
    .filter(({ kind }) => kind !== 'plain')
    .map((value) => {
      if (!isSuccess(answer.status)) return `${value.name}: refused (${answer.status})`;
      const explanation = explanationOf(value, answer.json, circumstances);
      return `${value.name}: ${explanation ? `${explanation.reading}${explanation.by ? ` (${NEIGHBOUR_WORDS[explanation.by]})` : ''}` : 'no reading'}`;
    });
}

/** A coercible value taken: observed as ORD-OBS-019 says. */
function observeCoercion(sent: EdgesSent): void {
  if (sent.cases.some(({ kind }) => kind === 'coercible')) observe('ORD-OBS-019', `${sent.name}: taken (read as the value it denotes, or as not sent)`);
}

/** Stops the test unless a get found the order asked for: only then can what it shows be judged. */
function foundAsked(id: string, got: Exchange): void {
  ensure([getAccepted(got), getAnswersOrderAsked(id, got)].filter((judgement) => judgement !== undefined));
}

/** A body of edge values sent as its JSON text, exactly (1e400 and -0 have no other way through). */
function sendEdges(api: OmsApi, body: Pick<EdgeBody, 'text'>, id?: string): Promise<Exchange> {
  const line = id === undefined ? requestLine('createOrder') : orderRequest('updateOrder', id);
  return api.send({ ...line, rawBody: body.text, contentType: 'application/json' });
}

test.describe(`coverage phase: ${QUERIES.length + ORDERS.length} deterministic cases from openapi.yaml`, () => {
  test(
    `answers each of ${QUERIES.length} page and limit bounds (and bound ± 1) with a 2xx page in range, or a 4xx or a clamped page out of range`,
    verifies('ORD-LIST-002', 'ORD-LIST-004', 'ORD-LIST-005', 'ORD-LIST-010'),
    async ({ api }) => {
      // The cases are independent: sent side by side, judged in order.
      const answers = await together(QUERIES.map(({ input }) => api.list(input as Record<string, string | number>)));
      for (const [index, { input }] of QUERIES.entries()) check(await listAnswerHolds(api, input, answers[index]));
    },
  );

  test(
    `accepts each of ${ORDERS.length} create bodies (required only, each optional field, each object form, each nullable as null) and returns what it was sent`,
    verifies('ORD-CREATE-001', 'ORD-CREATE-002', 'ORD-CREATE-004'),
    async ({ api }) => {
      const answers = await together(ORDERS.map(({ input }) => api.create(input)));
      for (const [index, { name, input }] of ORDERS.entries()) {
        const created = answers[index];
        // Required-ness and length limits of nested fields are not shown (2.7): refusing exotic values proves nothing.
        if (refusalProvesNothing(input, created)) continue;
        const accepted = acceptedUnlessRefusable(input, createAcceptedFor(input))(created);
        const refusal = violationIn(accepted);
        check(accepted && { ...accepted, finding: refusal && { ...refusal, expected: `${refusal.expected} (coverage case: ${name})` } });
        if (!refusal) check(createAnswersWhatWasSent(input, created, `the create response (coverage case: ${name})`));
      }
    },
  );

  test(
    'takes each value of the edge catalogue (every number, integer, boolean and date-time field, text, empty and null objects and arrays, two items of one name, totals and sums past a double) as sent, or refuses it with a 4xx where a server may, and reads each taken one back through get, update and list',
    verifies('ORD-CREATE-001', 'ORD-CREATE-002', 'ORD-CREATE-004', 'ORD-CREATE-007', 'ORD-GET-001', 'ORD-GET-002', 'ORD-UPDATE-001', 'ORD-UPDATE-002', 'ORD-UPDATE-003', 'ORD-LIST-008', 'ORD-ERR-004', 'ORD-ERR-008', 'ORD-OBS-019', 'ORD-OBS-034'),
    async ({ api }) => {
      // A body of several values that was not taken is sent again in parts (one value, then one value in one field), so each is judged by name.
      const sent: Array<{ body: EdgeBody; created: Exchange }> = [];
      for (let round = createEdgeBodies(() => minimalOrder() as Json); round.length > 0; ) {
        const answers = await together(round.map((body) => sendEdges(api, body)));
        const parts = round.map((body, index) => (isSuccess(answers[index].status) ? [] : apart(body)));
        round.forEach((body, index) => parts[index].length === 0 && sent.push({ body, created: answers[index] }));
        round = parts.flat();
      }
      const taken = sent.filter(({ body, created }) => {
        check(edgesAnswered(body, created, createAcceptedFor(body.denoted)));
        return isSuccess(created.status) && typeof (created.json as Json | undefined)?.id === 'string';
      });
      // What the service answers to the neighbours of the values no fixed reading explains: the same create with each in its place.
      const neighbours = await withNeighbourAnswers(taken.map(({ body, created }) => ({ values: body.cases, body: body.denoted, answer: created, control: controlCreate(api) })));
      for (const [index, { body, created }] of taken.entries()) {
        observeCoercion(body);
        check(edgesComeBack(body, created, createAnswersWhatWasSent, 'the create response', neighbours[index]));
      }
      const seen = [
        ...sent.filter(({ created }) => !isSuccess(created.status)).flatMap(({ body, created }) => readingsSeen(body, created)),
        ...taken.flatMap(({ body, created }, index) => readingsSeen(body, created, neighbours[index])),
      ];
      observe('ORD-OBS-034', seen.join('; '));
      const ids = taken.map(({ created }) => String((created.json as Json).id));
      // Created side by side: each must be an order of its own before any is read back.
      ensure(distinctIds(ids, taken.map(({ created }) => created)));
      const stored = await together(ids.map((id) => api.get(id)));
      ids.forEach((id, index) => foundAsked(id, stored[index]));
      const storedNeighbours = await withNeighbourAnswersReadBack(
        api,
        taken.map(({ body }, index) => ({ values: body.cases, body: body.denoted, answer: stored[index], circumstances: neighbours[index], control: controlCreate(api) })),
      );
      taken.forEach(({ body }, index) => check(edgesComeBack(body, stored[index], storedAsSent, 'the stored order', storedNeighbours[index])));
      // In the list, the summary form beside the full form the get just showed.
      const listed = await judgedWhenSettled(api, () => findInList(api, ids), (search) => ids.map((id, index) => summaryCarriesFullForm(id, stored[index], search)).filter((judgement) => judgement !== undefined));
      check(listed);
      // The values an update takes, sent again through it: a stored value that breaks the next write shows here.
      const updates = taken.map(({ body }) => asUpdate(body));
      const updated = await together(updates.map((update, index) => sendEdges(api, update, ids[index])));
      const readAfter = await together(ids.map((id) => api.get(id)));
      const resent = updates.flatMap((update, index) => {
        check(edgesAnswered(update, updated[index], updateAccepted));
        // The order must still be there to be read: what an update did to it is judged on a get that found it.
        foundAsked(ids[index], readAfter[index]);
        return isSuccess(updated[index].status) ? [{ update, index }] : [];
      });
      // A twin of an order is the same create sent again: a control update finds it as the judged update found its order.
      const controlsOf = resent.map(({ update, index }) => ({
        values: update.cases,
        body: update.denoted,
        circumstances: { before: stored[index].json },
        control: controlUpdate(api, () => sendEdges(api, taken[index].body)),
      }));
      const afterUpdates = await withNeighbourAnswers(controlsOf.map((controls, at) => ({ ...controls, answer: updated[resent[at].index] })));
      const readAfterUpdates = await withNeighbourAnswersReadBack(
        api,
        controlsOf.map((controls, at) => ({ ...controls, answer: readAfter[resent[at].index], circumstances: afterUpdates[at] })),
      );
      resent.forEach(({ update, index }, at) => {
        check(edgesComeBack(update, updated[index], updateAnswersWhatWasSent, 'the update response', afterUpdates[at]));
        check(edgesComeBack(update, readAfter[index], (denoted, exchange, what) => updateVisibleOnGet(denoted, exchange, what, updated[index]), 'the order after the update', readAfterUpdates[at]));
      });
    },
  );

  test(
    `applies each of ${UPDATE_EDGES.length} updates of one field to its empty value, to null (price 0, note "", [], {}) or to a number a create may refuse (2.5 for a quantity, 1e400), or refuses it leaving the order as it was; never null for a field every order holds`,
    verifies('ORD-CREATE-003', 'ORD-CREATE-007', 'ORD-GET-001', 'ORD-UPDATE-001', 'ORD-UPDATE-002', 'ORD-UPDATE-003', 'ORD-ERR-004', 'ORD-ERR-008', 'ORD-OBS-019', 'ORD-OBS-034'),
    async ({ api }) => {
      const made = UPDATE_EDGES.map(() => fullOrder());
      const created = await together(made.map((body) => api.create(body)));
      created.forEach((exchange) => ensure([createAccepted(exchange), idAssigned(exchange)].filter((judgement) => judgement !== undefined)));
      const ids = created.map((exchange) => String((exchange.json as Json).id));
      ensure(distinctIds(ids, created));
      // The orders as stored, just before the updates: what a refused one must leave as it was.
      const stored = await together(ids.map((id) => api.get(id)));
      stored.forEach((got, index) => foundAsked(ids[index], got));
      const before = stored.map((got) => got.json as Json);
      const updated = await together(UPDATE_EDGES.map((edge, index) => sendEdges(api, edge, ids[index])));
      const after = await together(ids.map((id) => api.get(id)));
      // A twin of an order is made from the same body: a control update goes to it.
      const controlsOf = UPDATE_EDGES.map((edge, index) => ({
        values: edge.roundTrip ? edge.cases : [],
        body: edge.denoted,
        circumstances: { before: before[index] },
        control: controlUpdate(api, () => api.create(withOwnReferences(made[index]))),
      }));
      const circumstances = await withNeighbourAnswers(controlsOf.map((controls, index) => ({ ...controls, answer: updated[index] })));
      const afterCircumstances = await withNeighbourAnswersReadBack(
        api,
        // Only a taken update is read back through its controls.
        controlsOf.map((controls, index) => ({ ...controls, values: isSuccess(updated[index].status) ? controls.values : [], answer: after[index], circumstances: circumstances[index] })),
      );
      observe('ORD-OBS-034', UPDATE_EDGES.flatMap((edge, index) => readingsSeen(edge, updated[index], circumstances[index])).join('; '));
      UPDATE_EDGES.forEach((edge, index) => {
        const [update, got] = [updated[index], after[index]];
        check(edgesAnswered(edge, update, updateAccepted));
        foundAsked(ids[index], got);
        if (!isSuccess(update.status)) {
          if (edgeMayBeRefused(edge) && update.status < 500) check(refusedUpdateLeftOrder(edge.name, before[index], got, update));
          return;
        }
        observeCoercion(edge);
        if (!edge.roundTrip) return;
        check(edgesComeBack(edge, update, updateAnswersWhatWasSent, 'the update response', circumstances[index]));
        check(edgesComeBack(edge, got, (denoted, exchange, what) => updateVisibleOnGet(denoted, exchange, what, update), 'the order after the update', afterCircumstances[index]));
      });
    },
  );
});
