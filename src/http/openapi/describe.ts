/**
 * Turns an English description into the edition's language. The generator takes it as a
 * parameter, so a test can pass a collector and learn every text a document uses.
 */
export type Describe = (english: string) => string;
