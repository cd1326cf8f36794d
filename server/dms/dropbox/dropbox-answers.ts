import { z } from "zod";

// Dropbox's answers as the client reads them, one schema per shape, after the Stone
// specification's types (dropbox/dropbox-api-spec): the fields a type requires are required
// here, the rest the client reads are optional, and whatever else Dropbox sends is left aside.
// Every SDK call's result goes through one of these (DropboxClient.call), so an answer of another
// shape is a clear error, never a filing built on a missing field.

const propertyGroup = z.object({ template_id: z.string(), fields: z.array(z.object({ name: z.string(), value: z.string() })) });

/** files.FileMetadata: what an upload answers, and a file's entry in get_metadata. */
export const fileMetadata = z.object({
  id: z.string().min(1),
  name: z.string(),
  path_lower: z.string().optional(),
  path_display: z.string().optional(),
  property_groups: z.array(propertyGroup).optional(),
});
export type FileMetadata = z.infer<typeof fileMetadata>;

/** files/get_metadata: a file, a folder or a deleted entry, told apart by ".tag". */
export const metadata = z.discriminatedUnion(".tag", [
  fileMetadata.extend({ ".tag": z.literal("file") }),
  z.object({ ".tag": z.literal("folder"), id: z.string().min(1), name: z.string() }),
  z.object({ ".tag": z.literal("deleted"), name: z.string() }),
]);

/** files/list_folder: only the count of entries is read. */
export const folderListing = z.object({ entries: z.array(z.unknown()), has_more: z.boolean() });

/** files/upload_session/start. */
export const uploadSession = z.object({ session_id: z.string().min(1) });

/** An answer whose body the client does not read (create_folder_v2, append_v2, templates/update). */
export const unread = z.unknown();

/** users/get_current_account: the name shown, and the root namespace team members file into. */
export const account = z.object({
  name: z.object({ display_name: z.string() }),
  email: z.string(),
  root_info: z.object({ root_namespace_id: z.string().min(1), home_namespace_id: z.string().min(1) }),
});

/** sharing/create_shared_link_with_settings. */
export const sharedLink = z.object({ url: z.string().min(1) });

/** sharing/list_shared_links. */
export const sharedLinks = z.object({ links: z.array(sharedLink) });

/** file_properties/templates/list_for_user. */
export const templateIds = z.object({ template_ids: z.array(z.string()) });

/** file_properties/templates/get_for_user. */
export const template = z.object({ name: z.string(), fields: z.array(z.object({ name: z.string() })) });

/** file_properties/templates/add_for_user. */
export const templateAdded = z.object({ template_id: z.string().min(1) });

/** oauth2/token with grant_type refresh_token. */
export const token = z.object({ access_token: z.string().min(1), expires_in: z.number().nonnegative().optional() });
