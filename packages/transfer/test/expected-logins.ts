/**
 * The 12 logins every file of the own "twelve-*" fixtures yields (test/fixtures/twelve-*: one
 * made-up vault written in each primary format), as [name, url, username, password] sorted
 * like loginQuadruples. Their passwords hold the awkward characters real exports must carry:
 * commas, spaces, backticks, quotes, `$`, `|`, braces and a backslash; two logins share name
 * and address but not user name; one has no password; two have no address.
 */
export const EXPECTED_LOGINS: readonly ExpectedLogin[] = [
  { name: 'chirper.test', url: 'https://chirper.test/', username: 'ulvhart', password: 'TpOFxwV,lK%-dJLK0[d#T;]kC' },
  { name: 'fediverse.test', url: 'https://fediverse.test/', username: 'ulvhart', password: "E<JOOfU?#?Cg5%`aB/5j!/'$U" },
  {
    name: 'harbor bank',
    url: 'https://online.harbor-bank.test',
    username: 'mira@quill.test',
    password: "q7T@;_ZB[R|M!4'`~y%KD'LHGVcg#JY _F1}:IG,[{fj1iCh25",
  },
  {
    name: 'hosting.test',
    url: 'https://www.hosting.test/manager/web/',
    username: 'czoczkirka',
    password: "4A-WX!j,k(&!aSHQv(iGf]t'(",
  },
  {
    name: 'hosting.test',
    url: 'https://www.hosting.test/manager/web/',
    username: 'ktelzwcxko',
    password: '^Ws/|p>_I9Y%U]8>g}8|:V!At',
  },
  {
    name: 'https://forum.kestrel.test',
    url: 'https://forum.kestrel.test',
    username: 'ulvhart',
    password: "2)Cug3FJ~Ugc8h3B!Tz',*Tk#",
  },
  { name: 'mira@larkspur.test', url: '', username: 'mira', password: '3dVrf}f0}>JWAg)Zf>4D9AO,s' },
  { name: 'mira@oakfern.test', url: 'https://oakfern.test', username: 'mira', password: '7LWJoy:.T_T;dG`=DF@f\\q{w7' },
  { name: 'mira@pinemail.test', url: 'https://mail.pinemail.test', username: 'mira', password: 'sQDlnOliJb>{jau4D4G934!Hp' },
  { name: 'mira@quill.test', url: '', username: 'mira', password: "nu}i'iTVDZ;TV;;B!m[9z4P:9" },
  { name: 'no password', url: 'https://brightmoor.test', username: 'tovelund', password: '' },
  { name: 'title with space', url: 'https://brightmoor.test', username: 'tovelund', password: ']tuELp{%ql' },
];

/** A login as the cross-format tests compare it. */
export interface ExpectedLogin {
  name: string;
  url: string;
  username: string;
  password: string;
}

/** The logins of a result as the same quadruples, sorted like EXPECTED_LOGINS. */
export function loginQuadruples(
  items: readonly { type: string; name: string; urls: string[]; username: string; password: string }[],
) {
  return items
    .filter((item) => item.type === 'login')
    .map((item) => ({ name: item.name, url: item.urls[0] ?? '', username: item.username, password: item.password }))
    .sort((a, b) => (a.name === b.name ? a.username.localeCompare(b.username) : a.name < b.name ? -1 : 1));
}
