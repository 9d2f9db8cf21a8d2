export { mapHeaders } from './map-headers';
export { matchHeaders, type MatchOptions, type MatchResult, type UncertainPair } from './match-headers';
export { createLlmAnswerCache, resolveWithLlm, type LlmAnswerCache, type LlmOptions } from './llm-resolver';
export { HeaderItem, HeaderMapping, MapHeadersInput, MapHeadersOutput, MAX_HEADERS, MAX_LABEL_CHARS } from './schemas';
