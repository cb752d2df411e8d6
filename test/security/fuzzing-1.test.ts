// The fuzzer's share 1 of FUZZ_SHARDS (test/security/fuzzer.ts says why it is dealt to several files).
import { fuzzShard } from "./fuzzer.ts";

fuzzShard(0);
