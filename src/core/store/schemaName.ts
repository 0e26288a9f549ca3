/** The schema holding every table of the team store. */
export const SCHEMA = 'platform_explorer';
