/** Names in the order people count them: edge2 before edge10. */
export const naturalOrder = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });
