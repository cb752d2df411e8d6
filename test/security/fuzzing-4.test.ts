// The fuzzer's share 4 of FUZZ_SHARDS (test/security/fuzzer.ts says why it is dealt to several files).
import { fuzzShard } from "./fuzzer.ts";

fuzzShard(3);
