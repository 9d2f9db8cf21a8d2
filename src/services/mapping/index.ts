export { mapHeaders } from './map-headers';
export { matchHeaders, type MatchOptions, type MatchResult, type UncertainPair } from './match-headers';
export { createLlmAnswerCache, resolveWithLlm, type LlmAnswerCache, type LlmOptions } from './llm-resolver';
export { ConfirmedMapping, HeaderItem, HeaderMapping, LearnedMapping, MapHeadersInput, MapHeadersOutput, MAX_HEADERS, MAX_LABEL_CHARS } from './schemas';
export { forgetEndUserMappings, forgetLearnedMappings, listLearnedMappings } from './learned-mappings';
