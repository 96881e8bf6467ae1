/// <reference types="vite/client" />

/** True only in a test build (buildRenderer's `renderCounts`): see lib/render-count.tsx. */
declare const __RENDER_COUNTS__: boolean;
