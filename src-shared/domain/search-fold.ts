/**
 * A text as search compares it: letters without their accents and in one case, so "resume" finds
 * "Résumé final.docx" and "ZOË" finds "Zoë" (issue 34). NFKD splits an accented letter into the letter
 * and its marks, which are dropped; the compatibility forms fold too ("ﬁ" is "fi"). The Files index
 * keeps each name folded so (remote_index_files.name_fold); the leads search folds both sides.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
