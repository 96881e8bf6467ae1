/** The one plural rule of the app lives with the shared words (src-shared/domain/words.ts). */
export { plural } from '../../src-shared/domain/words';
