import { AUTH_FAULTS } from './auth';
import { CONCURRENCY_FAULTS } from './concurrency';
import { CREATE_FAULTS } from './create';
import { DELETE_FAULTS } from './delete';
import { EDGE_FAULTS } from './edges';
import { ERROR_FAULTS } from './errors';
import { FORMAT_FAULTS } from './formats';
import { GET_FAULTS } from './get';
import { LIST_FAULTS } from './list';
import { UPDATE_FAULTS } from './update';
import { OUTSIDE_TEST_FAULTS } from './outside-tests';

export type { FaultDefinition } from './kit';

/** Every fault, by area; each is switched on by OMS_FAULT=<id>. */
export const FAULTS = [
  ...LIST_FAULTS,
  ...CREATE_FAULTS,
  ...GET_FAULTS,
  ...UPDATE_FAULTS,
  ...DELETE_FAULTS,
  ...AUTH_FAULTS,
  ...FORMAT_FAULTS,
  ...ERROR_FAULTS,
  ...CONCURRENCY_FAULTS,
  ...EDGE_FAULTS,
  ...OUTSIDE_TEST_FAULTS,
];
