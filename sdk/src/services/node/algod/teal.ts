import { AssembleError } from '../../../teal/types.js';
import { assembleCollect, formatDiagnostic } from '../../../teal/assembler/index.js';
import { disassemble } from '../../../teal/disassembler/index.js';
import { toNodeSourceMap } from '../../../teal/sourcemap.js';
import { TealworksError } from '../../../errors.js';
import { BadRequestError } from '../../http/errors.js';
import { jsonReply } from '../../http/reply.js';
import { type AlgodJson } from './views.js';
import { boolParam, JSON_ONLY, R } from './common.js';
import type { AlgodRouteOptions, AlgodRoute } from './common.js';

/** `teal/compile` (our assembler) and `teal/disassemble`. */
export function tealRoutes(_options: AlgodRouteOptions): AlgodRoute[] {
  return [
    {
      operationId: 'TealCompile',
      method: 'POST',
      path: '/v2/teal/compile',
      summary: 'Compile TEAL source code to binary, produce its hash (our assembler: #define macros and every version).',
      params: [
        { name: 'source', in: 'body', type: 'string', format: 'binary', required: true, description: 'TEAL source code to be compiled' },
        { name: 'sourcemap', in: 'query', type: 'boolean', description: 'When set to true, returns the source map of the program as a JSON.' },
      ],
      consumes: ['text/plain'],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request - Teal Compile Error', '404': 'Developer API not enabled', '500': 'Internal Error' }),
      maxBodyBytes: 512 * 1024,
      handler: async (ctx) => {
        const wantMap = boolParam(ctx.query.get('sourcemap'), 'sourcemap') ?? false;
        const source = new TextDecoder().decode(await ctx.body());
        const { result, diagnostics } = assembleCollect(source);
        if (!result) {
          const errors = diagnostics.filter((d) => d.severity === 'error');
          throw new BadRequestError((errors.length ? errors : diagnostics).map((d) => formatDiagnostic(d)).join('\n') + '\n');
        }
        const o: AlgodJson = { hash: result.address, result: result.program };
        if (wantMap) o.sourcemap = toNodeSourceMap(result.sourceMap, { sources: ['<body>'] });
        return jsonReply(o);
      },
    },
    {
      operationId: 'TealDisassemble',
      method: 'POST',
      path: '/v2/teal/disassemble',
      summary: 'Disassemble program bytes into the TEAL source code.',
      params: [{ name: 'source', in: 'body', type: 'string', format: 'byte', required: true, description: 'TEAL program binary to be disassembled' }],
      consumes: ['application/x-binary'],
      produces: JSON_ONLY,
      responses: R({ '400': 'Bad Request - Teal Compile Error', '404': 'Developer API not enabled', '500': 'Internal Error' }),
      maxBodyBytes: 512 * 1024,
      handler: async (ctx) => {
        const program = await ctx.body();
        try {
          return jsonReply({ result: disassemble(program) });
        } catch (e) {
          if (e instanceof AssembleError || e instanceof TealworksError) throw new BadRequestError(e.message);
          throw e;
        }
      },
    },
  ];
}
