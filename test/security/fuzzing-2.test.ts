// The fuzzer's share 2 of FUZZ_SHARDS (test/security/fuzzer.ts says why it is dealt to several files).
import { fuzzShard } from "./fuzzer.ts";

fuzzShard(1);
