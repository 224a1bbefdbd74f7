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

import type { FaultDefinition } from './kit';

export type { FaultDefinition } from './kit';

/**
 * The faults by family: the area file that declares them (the id prefix where there is one; the edge values and the
 * faults outside the tests have their own files). The matrix runs the whole suite against one fault of each family
 * (selftest/matrix/rows.ts), the tests of their own requirements against the others.
 */
export const FAULT_FAMILIES: Record<string, readonly FaultDefinition[]> = {
  list: LIST_FAULTS,
  create: CREATE_FAULTS,
  get: GET_FAULTS,
  update: UPDATE_FAULTS,
  delete: DELETE_FAULTS,
  auth: AUTH_FAULTS,
  format: FORMAT_FAULTS,
  errors: ERROR_FAULTS,
  concurrency: CONCURRENCY_FAULTS,
  edges: EDGE_FAULTS,
  'outside-tests': OUTSIDE_TEST_FAULTS,
};

/** Every fault, by area; each is switched on by OMS_FAULT=<id>. */
export const FAULTS: FaultDefinition[] = Object.values(FAULT_FAMILIES).flat();
