import { fuzzEndpoints } from '../fixtures/fuzz-api';

// Every API endpoint under random input, the 4th of tests/fixtures/fuzz-api.ts's shards.
fuzzEndpoints(4);
