/**
 * Modes of what importd creates: the database holds key hashes and the session signing secret, exports and
 * backups hold end-users' data, so only their owner may read them (`main` also sets the umask to 077).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;
