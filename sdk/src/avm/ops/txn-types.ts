/** `TypeEnum` values of transaction types. */
export const TYPE_ENUM: Record<string, number> = { pay: 1, keyreg: 2, acfg: 3, axfer: 4, afrz: 5, appl: 6, stpf: 7, hb: 8 };
export const TYPE_BY_ENUM: readonly string[] = ['unknown', 'pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl', 'stpf', 'hb'];
