import { knobBehaviour, knobsText } from './knobs';
import { LOAD_VARIANTS } from './load';
import { RESPONSE_VARIANTS } from './responses';
import { STORAGE_VARIANTS } from './storage';
import { variant, type VariantDefinition } from './definition';
import { behindNginx } from './freedoms';

export type { VariantDefinition } from './definition';

/**
 * Named points of the space of conformant servers (selftest/reference/variants/knobs.ts) that combine several knobs.
 * Each hand-written variant is the point where one knob takes its value (selftest/conformant-space.test.ts checks it).
 */
const POINTS: Array<{ name: string; description: string; basis: string; setting: Record<string, string> }> = [
  {
    name: 'independent-implementation',
    description:
      'A server written from the document alone: empty values for unsent fields, billing and item totals computed, client timestamps kept to the second, amounts to the cent, a page past the last answered 404, malformed ids and exotic text and numbers refused with 400, numeric strings taken as numbers.',
    basis: 'Issue 11: each is a freedom of the document (see the knobs and their catalogue entries).',
    setting: {
      'unsent-optionals': 'empty',
      'billing-totals': 'computed',
      'item-total': 'with-tax-and-discount',
      'sent-timestamps': 'seconds',
      amounts: 'cents',
      'page-past-last': 'not-found',
      'order-id-check': 'malformed-refused',
      'exotic-values': 'all-refused',
      'scalar-coercion': 'numeric-strings-taken',
    },
  },
  {
    name: 'go-pointer-structs',
    description:
      'A Go service on encoding/json with structs of pointer fields: null read as not sent on create (its zero values and defaults for an object it did not get, a time stamped) and on update, a lone surrogate as U+FFFD, values of the wrong type dropped by its binder, every answer gzipped whatever the client accepts, a second order with one channel reference refused with 409, behind nginx with its defaults. OMS_KNOBS=null-on-create=not-sent-with-defaults,null-on-update=ignored,lone-surrogates=replaced,wrong-types=dropped-by-binder,content-coding=gzip-always,channel-reference=unique-409,early-answers=behind-nginx',
    basis: 'Issue 38: each is a reading of a value the document does not define (ORD-OBS-034), or a freedom of its own (ORD-OBS-020, ORD-OBS-032).',
    setting: {
      'null-on-create': 'not-sent-with-defaults',
      'null-on-update': 'ignored',
      'lone-surrogates': 'replaced',
      'wrong-types': 'dropped-by-binder',
      'content-coding': 'gzip-always',
      'channel-reference': 'unique-409',
      'early-answers': 'behind-nginx',
    },
  },
  {
    name: 'rails-lax-params',
    description:
      'A Ruby service on Rails: a body that is no object an update of no fields, a lone surrogate written "?", numbers and booleans read as Pydantic-like lax parsers read them, null over a field every order holds ignored by an update. OMS_KNOBS=non-object-update=no-fields,lone-surrogates=question-mark,scalar-coercion=pydantic-lax,update-null-over-required=ignored',
    basis: 'Issue 38: each is a reading of a value the document does not define (ORD-OBS-034, ORD-OBS-019, ORD-OBS-005).',
    setting: {
      'non-object-update': 'no-fields',
      'lone-surrogates': 'question-mark',
      'scalar-coercion': 'pydantic-lax',
      'update-null-over-required': 'ignored',
    },
  },
];

/**
 * Deployments the document does not cover: what infrastructure in front of the service answers of its own is
 * observed (ORD-OBS-028), never failed, so each passes both profiles; each is a value of a knob too.
 */
const DEPLOYMENTS: VariantDefinition[] = [
  variant({
    name: 'behind-nginx',
    description:
      'The service behind nginx (client_max_body_size 1m, large_client_header_buffers 4 8k): a body over 1 MiB gets nginx\'s own HTML 413 page, a header line over 8 KiB its own HTML 400 page (text/html, Server: nginx), on the headers alone.',
    basis: 'Section 1 covers order bodies; a request larger than any order needs may meet infrastructure in front of the service, whose own page is observed (ORD-OBS-028), not judged (knob early-answers=behind-nginx).',
    hooks: behindNginx,
  }),
];

/** Every variant; each is switched on by OMS_VARIANT=<name>, and the suite must accept each one. */
export const VARIANTS: VariantDefinition[] = [
  ...RESPONSE_VARIANTS,
  ...STORAGE_VARIANTS,
  ...LOAD_VARIANTS,
  ...DEPLOYMENTS,
  ...POINTS.map(({ name, description, basis, setting }) => ({
    name,
    description: `${description} (OMS_KNOBS=${knobsText(setting)})`,
    basis,
    behaviour: () => knobBehaviour(name, setting),
  })),
];
