/** A Dropbox credential's settings, secrets decrypted. See docs/dms/dropbox.md for where each comes from. */
export interface DropboxSettings {
  /** The app key of the firm's Dropbox app (the OAuth client id). */
  app_key: string;
  app_secret: string;
  /** The offline refresh token the firm's administrator obtained for the app. */
  refresh_token: string;
  /** Where documents go, e.g. "/ECFX"; "" for the app folder's root (or the whole Dropbox, for a full-access app). */
  root_path: string;
  /** Milliseconds to wait after creating a folder before uploading into it; 0 when unset. */
  folder_creation_sync_delay: number;
}
