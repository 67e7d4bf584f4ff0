// The declaration in include/ is all this target has: the definition is the fuzzer runtime's.
