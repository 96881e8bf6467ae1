/** The largest JSON body any endpoint reads (admin surface, knowledge entries, file API). */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** An upload by URL is a few fields: its JSON is cut off much sooner. */
export const URL_UPLOAD_JSON_LIMIT = 64 * 1024;
