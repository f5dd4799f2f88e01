// Types of usage.js (plain JavaScript so that `fabscope help` needs no TypeScript loader).
export declare const COLLECT_USAGE: string;
export declare const PARSE_USAGE: string;
export declare const EMULATE_USAGE: string;
export declare const USAGE: string;
export declare const TOP_USAGE: string;
