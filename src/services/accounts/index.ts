export { createAccount, ensureDefaultAccount, listAccounts, resolveAccount } from './accounts';
export { AccountName, CreateAccountInput, DEFAULT_ACCOUNT, type AccountOutput, type AccountUsageOutput } from './schemas';
