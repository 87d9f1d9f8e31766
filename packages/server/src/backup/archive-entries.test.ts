import { describe, expect, it } from 'vitest';
import { checkArchiveEntries } from './archive-entries';

const LOCKIT = `;
; Archive created at 2026-11-27 14:00:00 UTC
;
6; 2615 16387 SCHEMA - lockit lockit
3500; 0 0 COMMENT - SCHEMA lockit lockit
224; 1259 16502 TABLE lockit account_documents lockit
221; 1259 16455 TABLE lockit users lockit
3480; 0 16502 TABLE DATA lockit account_documents lockit
3481; 0 16455 TABLE DATA lockit users lockit
3300; 2606 16510 CONSTRAINT lockit users users_pkey lockit
3310; 1259 16520 INDEX lockit sessions_user_id_idx lockit
3320; 2606 16530 FK CONSTRAINT lockit sessions sessions_user_id_fkey lockit
`;

describe("an archive's table of contents", () => {
  it('lets a dump of a Lockit schema through and names the tables with rows', () => {
    expect(checkArchiveEntries(LOCKIT, 'lockit')).toEqual(['account_documents', 'users']);
  });

  it.each([
    ['a function', '230; 1255 16600 FUNCTION lockit leak() lockit'],
    ['a trigger', '3400; 2620 16601 TRIGGER lockit users leak lockit'],
    ['a view', '231; 1259 16602 VIEW lockit everything lockit'],
    ['an extension', '2; 3079 16603 EXTENSION - plpython3u '],
    ['another schema', '7; 2615 16604 SCHEMA - elsewhere lockit'],
    ['a table in another schema', '232; 1259 16605 TABLE elsewhere notes lockit'],
    ['a sequence', '233; 1259 16606 SEQUENCE lockit counter lockit'],
    ['a policy', '3401; 3256 16607 POLICY lockit users everyone lockit'],
  ])('refuses an archive with %s', (_, line) => {
    expect(() => checkArchiveEntries(`${LOCKIT}${line}\n`, 'lockit')).toThrow(
      /holds objects a Lockit backup never has .*Nothing was changed\./,
    );
  });
});
