import { fuzzEndpoints } from '../fixtures/fuzz-api';

// Every API endpoint under random input, the 2nd of tests/fixtures/fuzz-api.ts's shards.
fuzzEndpoints(2);
