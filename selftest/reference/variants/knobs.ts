import type { Behaviour } from '../../../reference/app';
import { listFromLaggingIndex, onFullForm, type Hooks } from '../faults/kit';
import { LOAD_VARIANTS } from './load';
import { RESPONSE_VARIANTS } from './responses';
import { softDelete, STORAGE_VARIANTS } from './storage';
import {
  activitiesRecorded,
  answeredBeforeBody,
  applicationServerPages,
  behindNginx,
  amountsInCents,
  billingComputed,
  coerceNumericStrings,
  deletedIdsReused,
  emptyObjectsDropped,
  nullObjectsAsObjectsOfNulls,
  emptyUpdateBodyAsObject,
  lenientBodies,
  bytesDecodedAsPython,
  refuseDuplicateKeys,
  emptyServiceArrays,
  emptyUnsentFields,
  hourOnlyOffsetTimestamps,
  int32SequenceIds,
  inSomeResponses,
  itemTotalsWithTax,
  listedById,
  keepItemsOnEmptyUpdate,
  nullUnsentFields,
  otherStatusWords,
  pastLastPageNotFound,
  refuseExotic,
  refuseRequest,
  exoticText,
  exoticNumber,
  gzipEveryAnswer,
  exampleNestedFieldMissing,
  refuseEmptyItemsOnUpdate,
  refuseMalformedIds,
  refuseUndeclaredFieldsAnywhere,
  refuseUnlabelledBodies,
  repeatedDeleteAccepted,
  sentTimestampsTo,
  someResponseFields,
  liveDeletedAt,
  tokensDecodedBeforeLookup,
  storedAs,
  summariesWithoutEmptyObjects,
  uniqueChannelReferences,
  textInNfd,
  loneSurrogatesAsReplacement,
  textWhitespace,
  unsentFields,
  versionHeader,
  undefinedMethodsAnswered,
  pathIdsTrimmedAndReadAsNumbers,
  allowWithHeadAndOptions,
  errorsNamingFieldAndValue,
} from './freedoms';
import { amountBeyondColumn, pydanticLax, requiredNullsIgnoredOnUpdate, unplainNumberLiteral, unstorableText } from './edges';
import { loneSurrogatesAs, nonObjectUpdateAsNoFields, nullObjectsAsEmptyStamped, nullsIgnoredOnUpdate, nullsNotSentOnCreate, nullScalarsAsZeroValues, replacingUpdateNullAsOmitted, wrongTypesDroppedByBinder } from './readings';
import type { StoredOrder } from '../../../reference/store';
import { nestedFieldLeftOut } from '../../../checks/nested-fields';

/**
 * The space of conformant servers: each freedom the document leaves (a silent point of
 * requirements/catalogue.yaml) is a knob of the reference server, with the values a correct server
 * may take. values[0] is what the clean server does. OMS_KNOBS='name=value,...' sets knobs; a point
 * of the space is one value per knob, and every such point must pass the whole suite in both profiles
 * (selftest/conformant-space.test.ts).
 */
export interface Knob {
  /** kebab-case; the name in OMS_KNOBS. */
  name: string;
  /** The catalogue entry (OBSERVED or NONE) whose freedom this is. */
  entry: string;
  /** The values a correct server may take; the first is the clean server's. */
  values: readonly string[];
  /** The hooks of a value; undefined for the clean server's value. */
  behaviour(value: string): Hooks | undefined;
}

const ALL_VARIANTS = [...RESPONSE_VARIANTS, ...STORAGE_VARIANTS, ...LOAD_VARIANTS];

/** The hooks of a hand-written variant (selftest/reference/variants/*.ts): its behaviour is a value of a knob. */
function variantHooks(name: string): Hooks {
  const found = ALL_VARIANTS.find((variant) => variant.name === name);
  if (!found) throw new Error(`selftest/reference/variants/knobs: no variant "${name}"`);
  const { name: _name, ...hooks } = found.behaviour();
  return hooks;
}

/** A knob with two values: the clean server's, and a variant's. */
function toggle(name: string, entry: string, clean: string, variant: string): Knob {
  return { name, entry, values: [clean, variant], behaviour: (value) => (value === variant ? variantHooks(variant) : undefined) };
}

/** A knob whose values other than the first each have their own hooks. */
function choice(name: string, entry: string, clean: string, others: Record<string, () => Hooks>): Knob {
  return { name, entry, values: [clean, ...Object.keys(others)], behaviour: (value) => others[value]?.() };
}

export const KNOBS: readonly Knob[] = [
  // First: the bodies they read leniently are JSON to every knob after them that rewrites a body.
  choice('non-utf8-bytes', 'ORD-OBS-033', 'replaced', { 'python-json': bytesDecodedAsPython }),
  choice('non-finite-numbers', 'ORD-OBS-033', 'refused', { taken: () => lenientBodies({ nonFinite: true }) }),
  choice('trailing-comma', 'ORD-OBS-033', 'refused', { ignored: () => lenientBodies({ trailingComma: true }) }),
  choice('duplicate-keys', 'ORD-OBS-033', 'last-wins', { refused: refuseDuplicateKeys }),
  choice('empty-update-body', 'ORD-OBS-033', 'refused', { 'read-as-empty-object': emptyUpdateBodyAsObject }),
  toggle('create-status', 'ORD-OBS-001', '201', 'create-200'),
  toggle('error-status', 'ORD-OBS-002', '400', 'status-422'),
  choice('error-wording', 'ORD-OBS-002', 'generic', { 'names-field-and-value': errorsNamingFieldAndValue }),
  choice('undefined-methods', 'ORD-OBS-035', '405', { '404': () => undefinedMethodsAnswered(404), '501': () => undefinedMethodsAnswered(501) }),
  choice('allow-header', 'ORD-OBS-035', 'defined-methods', { 'with-head-and-options': allowWithHeadAndOptions }),
  toggle('delete-shape', 'ORD-OBS-003', 'message', 'delete-envelope'),
  choice('delete-effect', 'ORD-OBS-004', 'hard', {
    'soft-delete': () => variantHooks('soft-delete'),
    'soft-delete-listed': () => variantHooks('soft-delete-listed'),
    'soft-delete-conflict': () => variantHooks('soft-delete-conflict'),
    'soft-delete-writable': () => softDelete({ listed: false, refusal: 'none' }),
  }),
  choice('delete-again', 'ORD-OBS-004', 'not-found', { accepted: repeatedDeleteAccepted }),
  choice('update-omitted', 'ORD-OBS-005', 'keep', { 'update-replace': () => variantHooks('update-replace'), 'replace-null-as-omitted': replacingUpdateNullAsOmitted }),
  choice('update-null-over-required', 'ORD-OBS-005', 'refused', { ignored: () => ({ rewriteRequest: requiredNullsIgnoredOnUpdate }) }),
  choice('empty-items-update', 'ORD-OBS-006', 'cleared', { kept: () => ({ rewriteRequest: keepItemsOnEmptyUpdate }), refused: () => ({ intercept: refuseEmptyItemsOnUpdate }) }),
  choice('id-format', 'ORD-OBS-007', 'uuid', { 'prefixed-ids': () => variantHooks('prefixed-ids'), 'int32-sequence': int32SequenceIds }),
  choice('list-order', 'ORD-OBS-008', 'newest-first', { 'oldest-first': () => variantHooks('oldest-first'), 'by-id': listedById }),
  toggle('out-of-range-paging', 'ORD-OBS-009', 'reject', 'clamp-paging'),
  toggle('extra-fields', 'ORD-OBS-010', 'none', 'extra-fields'),
  choice('unsent-optionals', 'ORD-OBS-011', 'absent', {
    'null-optionals': () => variantHooks('null-optionals'),
    empty: () => unsentFields(emptyUnsentFields),
    'null-at-any-depth': () => unsentFields(nullUnsentFields),
  }),
  choice('empty-objects', 'ORD-OBS-011', 'kept', {
    dropped: () => ({ rewriteRequest: emptyObjectsDropped }),
    'left-out-of-summary': summariesWithoutEmptyObjects,
    'null-as-object-of-nulls': nullObjectsAsObjectsOfNulls,
    // Here, not with null-on-create: the {} a null is read as is an object sent empty, which the other values drop or fill.
    'null-as-empty-stamped': nullObjectsAsEmptyStamped,
  }),
  choice('unknown-fields', 'ORD-OBS-012', 'ignored', {
    'unknown-fields-rejected': () => variantHooks('unknown-fields-rejected'),
    'rejected-at-any-depth-422': refuseUndeclaredFieldsAnywhere,
  }),
  choice('billing-totals', 'ORD-OBS-013', 'as-sent', { computed: () => storedAs(billingComputed) }),
  choice('item-total', 'ORD-CREATE-006', 'quantity-times-price', { 'with-tax-and-discount': () => storedAs(itemTotalsWithTax) }),
  choice('sent-timestamps', 'ORD-OBS-014', 'as-sent', { seconds: () => storedAs(sentTimestampsTo(1000)), milliseconds: () => storedAs(sentTimestampsTo(1)) }),
  // A column that stores cents holds only so much: beyond it the amount is refused, never stored as something else.
  choice('amounts', 'ORD-OBS-015', 'as-sent', { cents: () => ({ ...storedAs((order) => amountsInCents(order) as StoredOrder), intercept: refuseExotic((body) => amountBeyondColumn(body)) }) }),
  choice('service-timestamps', 'ORD-OBS-016', 'utc-milliseconds', {
    'offset-timestamps': () => variantHooks('offset-timestamps'),
    'hour-only-offset': hourOnlyOffsetTimestamps,
  }),
  choice('page-past-last', 'ORD-LIST-009', 'empty-page', { 'not-found': () => ({ rewriteReply: pastLastPageNotFound }) }),
  choice('exotic-values', 'ORD-OBS-017', 'accepted', {
    'text-refused': () => ({ intercept: refuseExotic(exoticText) }),
    'numbers-refused': () => ({ intercept: refuseExotic(exoticNumber) }),
    'all-refused': () => ({ intercept: refuseExotic((body) => exoticText(body) ?? exoticNumber(body)) }),
  }),
  choice('control-text', 'ORD-OBS-017', 'taken', { refused: () => ({ intercept: refuseExotic(unstorableText) }) }),
  choice('number-literals', 'ORD-OBS-017', 'any', { 'plain-decimals-only': () => ({ intercept: refuseRequest(unplainNumberLiteral) }) }),
  choice('nested-required', 'ORD-OBS-026', 'none', {
    'as-in-the-example': () => ({ intercept: refuseExotic(exampleNestedFieldMissing) }),
    'every-filled-field': () => ({ intercept: refuseExotic(nestedFieldLeftOut) }),
  }),
  choice('order-id-check', 'ORD-OBS-018', 'looked-up', {
    'malformed-refused': () => ({ intercept: refuseMalformedIds() }),
    'trimmed-and-read-as-number': () => ({ rewriteRequest: pathIdsTrimmedAndReadAsNumbers }),
  }),
  choice('scalar-coercion', 'ORD-OBS-019', 'refused', {
    'numeric-strings-taken': () => ({ rewriteRequest: coerceNumericStrings }),
    'pydantic-lax': () => ({ rewriteRequest: pydanticLax }),
  }),
  // The readings of values the document does not define (checks/readings.ts), after the coercions above: what a lax parser coerced is of its type.
  choice('null-on-create', 'ORD-OBS-034', 'taken', { 'not-sent-with-defaults': nullsNotSentOnCreate }),
  choice('null-on-update', 'ORD-OBS-034', 'taken', { ignored: nullsIgnoredOnUpdate }),
  // Ajv's coerceTypes (Fastify's default) and Jackson's primitives: a null into a number is 0, into a boolean false, into text "".
  choice('null-scalars', 'ORD-OBS-034', 'taken', { 'zero-values': nullScalarsAsZeroValues }),
  choice('wrong-types', 'ORD-OBS-034', 'refused', { 'dropped-by-binder': wrongTypesDroppedByBinder }),
  choice('non-object-update', 'ORD-OBS-034', 'refused', { 'no-fields': nonObjectUpdateAsNoFields }),
  choice('body-label', 'ORD-OBS-030', 'any', { 'json-only-415': refuseUnlabelledBodies }),
  choice('service-arrays', 'ORD-OBS-031', 'empty', { null: () => emptyServiceArrays(null), absent: () => emptyServiceArrays(undefined) }),
  choice('channel-reference', 'ORD-OBS-032', 'not-unique', { 'unique-409': uniqueChannelReferences }),
  toggle('keep-alive', 'ORD-OBS-020', 'node-default', 'keep-alive-500ms'),
  choice('large-requests', 'ORD-OBS-028', 'refused', { taken: () => ({ takesLargeRequests: true }) }),
  toggle('token-endpoint', 'ORD-DOC-003', 'any-form', 'oauth-form-1s-tokens'),
  choice('token-lookup', 'ORD-DOC-003', 'exact-text', {
    'decoded-base64url': () => tokensDecodedBeforeLookup(),
  }),
  choice('unicode-form', 'ORD-OBS-023', 'as-sent', { nfd: () => ({ rewriteRequest: textInNfd }) }),
  choice('lone-surrogates', 'ORD-OBS-034', 'kept', {
    replaced: () => ({ rewriteRequest: loneSurrogatesAsReplacement }),
    'question-mark': () => ({ rewriteRequest: loneSurrogatesAs('?') }),
    dropped: () => ({ rewriteRequest: loneSurrogatesAs('') }),
  }),
  choice('text-whitespace', 'ORD-OBS-023', 'as-sent', { trimmed: () => ({ rewriteRequest: textWhitespace(false) }), squished: () => ({ rewriteRequest: textWhitespace(true) }) }),
  choice('some-response-fields', 'ORD-OBS-024', 'absent', {
    present: () => ({ rewriteReply: (request, reply) => onFullForm(request, reply, (order) => someResponseFields(order)) }),
    'in-some-responses': inSomeResponses,
  }),
  choice('live-deleted-at', 'ORD-OBS-025', 'null', {
    'empty-string': () => ({ rewriteReply: (request, reply) => onFullForm(request, reply, (order) => liveDeletedAt(order, '')) }),
    'zero-time': () => ({ rewriteReply: (request, reply) => onFullForm(request, reply, (order) => liveDeletedAt(order, '0001-01-01T00:00:00Z')) }),
    // .NET's DateTime.MinValue and Python's datetime.min are written without an offset.
    'zero-time-without-offset': () => ({ rewriteReply: (request, reply) => onFullForm(request, reply, (order) => liveDeletedAt(order, '0001-01-01T00:00:00')) }),
  }),
  choice('status-words', 'ORD-DOC-002', 'created', { 'open-then-processing': otherStatusWords }),
  choice('activities', 'ORD-DOC-004', 'none', { recorded: activitiesRecorded }),
  choice('versioning', 'ORD-DOC-005', 'none', { 'version-header': versionHeader }),
  choice('early-answers', 'ORD-OBS-028', 'after-reading', { 'before-reading': answeredBeforeBody, 'behind-nginx': behindNginx, 'application-server-pages': applicationServerPages }),
  choice('list-lag', 'ORD-OBS-027', 'none', { 'index-800ms': () => listFromLaggingIndex(800) }),
  toggle('other-orders', 'ORD-OBS-021', 'none', 'prefilled-account'),
  toggle('other-clients', 'ORD-OBS-021', 'none', 'background-writer'),
  choice('latency', 'ORD-DOC-006', 'none', { 'latency-50ms': () => variantHooks('latency-50ms'), 'latency-150ms': () => variantHooks('latency-150ms') }),
  choice('rate-limit', 'ORD-DOC-006', 'none', {
    'rate-limit-429': () => variantHooks('rate-limit-429'),
    'rate-limit-429-early': () => variantHooks('rate-limit-429-early'),
    'rate-limit-fixed-window': () => variantHooks('rate-limit-fixed-window'),
  }),
  // After every knob that keeps its own copy of the store (list-lag's index): they must meet an order under the id it is stored with.
  choice('deleted-ids', 'ORD-OBS-022', 'never-reused', { reused: deletedIdsReused }),
  // Last: it encodes whole bodies, so it takes effect after every knob that writes one (deleted-ids=reused renames an order).
  choice('content-coding', 'ORD-OBS-020', 'identity', { 'gzip-responses': () => variantHooks('gzip-responses'), 'gzip-always': gzipEveryAnswer }),
];

/** A setting's knobs in the order of KNOBS, the order their hooks take effect in, whatever order they were named in. */
export function inKnobOrder(setting: Readonly<Record<string, string>>): Array<[name: string, value: string]> {
  const rank = (name: string) => KNOBS.findIndex((knob) => knob.name === name);
  return Object.entries(setting).sort(([a], [b]) => rank(a) - rank(b));
}

/** The hooks of a setting of several knobs, merged into one behaviour (for named points of the space). */
export function knobBehaviour(name: string, setting: Readonly<Record<string, string>>): Behaviour {
  const hooks = inKnobOrder(setting).flatMap(([knobName, value]) => {
    const made = knobNamed(knobName, value).behaviour(value);
    return made ? [made] : [];
  });
  return { name, ...combine(hooks) };
}

export function knobNamed(name: string, value?: string): Knob {
  const knob = KNOBS.find((candidate) => candidate.name === name);
  if (!knob) throw new Error(`there is no knob "${name}". Knobs: ${KNOBS.map((k) => k.name).join(', ')}`);
  if (value !== undefined && !knob.values.includes(value)) {
    throw new Error(`knob ${name} has no value "${value}". Values: ${knob.values.join(', ')}`);
  }
  return knob;
}

/** Several hooks as one: services wrapped and requests and replies rewritten in turn; the first intercept that answers wins. */
export function combine(all: Hooks[]): Hooks {
  // The listener's settings: the shortest idle timeout wins; one knob that takes large requests makes the server take them.
  const idleMs = Math.min(...all.map((hooks) => hooks.keepAliveTimeoutMs ?? Infinity));
  return {
    wrapServices: (services, accounts) => all.reduce((wrapped, hooks) => hooks.wrapServices?.(wrapped, accounts) ?? wrapped, services),
    rewriteRequest: (request, context) => all.reduce((rewritten, hooks) => hooks.rewriteRequest?.(rewritten, context) ?? rewritten, request),
    intercept: async (request, context) => {
      for (const hooks of all) {
        const early = await hooks.intercept?.(request, context);
        if (early) return early;
      }
      return undefined;
    },
    rewriteReply: async (request, reply, context) => {
      let rewritten = reply;
      for (const hooks of all) rewritten = (await hooks.rewriteReply?.(request, rewritten, context)) ?? rewritten;
      return rewritten;
    },
    start: (services, accounts) => all.forEach((hooks) => hooks.start?.(services, accounts)),
    stop: () => all.forEach((hooks) => hooks.stop?.()),
    answerBeforeBody: (request, context) => all.reduce<ReturnType<NonNullable<Hooks['answerBeforeBody']>>>((early, hooks) => early ?? hooks.answerBeforeBody?.(request, context), undefined),
    keepAliveTimeoutMs: Number.isFinite(idleMs) ? idleMs : undefined,
    takesLargeRequests: all.some((hooks) => hooks.takesLargeRequests) || undefined,
  };
}

/** OMS_KNOBS='name=value,...' read into a setting; a configuration error names what is wrong. */
export function parseKnobs(text: string): Record<string, string> {
  const setting: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value, ...rest] = part.split('=');
    if (!name || value === undefined || rest.length) throw new Error(`"${part}" must look like name=value`);
    knobNamed(name.trim(), value.trim());
    setting[name.trim()] = value.trim();
  }
  return setting;
}

/** A setting written back as OMS_KNOBS text. */
export function knobsText(setting: Readonly<Record<string, string>>): string {
  return Object.entries(setting)
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}
