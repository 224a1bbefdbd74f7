import { serveUntilStopped } from '../../reference/server';
import { behavioursFromEnvironment } from './behaviours';

// `npm run proof:reference`: the reference server with the faults, variants, hostile modes and knobs that
// OMS_FAULT, OMS_VARIANT, OMS_HOSTILE and OMS_KNOBS name, to poke with curl (`npm run reference` serves the clean one).
serveUntilStopped({ behaviours: behavioursFromEnvironment(process.env) });
