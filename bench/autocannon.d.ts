// autocannon ships no types; the benchmark uses only its documented options and result fields.
declare module 'autocannon';
