export { mapHeaders } from './map-headers';
export { matchHeaders, type MatchOptions, type MatchResult, type UncertainPair } from './match-headers';
export { resolveWithLlm, type LlmOptions } from './llm-resolver';
export { HeaderItem, HeaderMapping, MapHeadersInput, MapHeadersOutput, MAX_HEADERS } from './schemas';
