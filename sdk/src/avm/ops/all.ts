// Importing each module registers its opcodes.
import './arith.js';
import './bytes.js';
import './bigmath.js';
import './core.js';
import './txn.js';
import './state.js';
import './boxes.js';
import './crypto.js';
import './ec.js';
import './inner.js';
