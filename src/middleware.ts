// Astro loads middleware only from src/; the pipeline lives in the top-level middleware/ folder.
export { onRequest } from '../middleware';
