import { fuzzEndpoints } from '../fixtures/fuzz-api';

// Every API endpoint under random input, the 3rd of tests/fixtures/fuzz-api.ts's shards.
fuzzEndpoints(3);
