import { jsonOption, print } from './output.js';

/**
 * `lockit config`: the command line's own settings (config.js), read and set without the agent.
 *
 * @param {import('commander').Command} program
 */
export function addConfigCommand(program) {
  program
    .command('config')
    .description('show or change a setting: lockit config [NAME [VALUE]] (git.store ask|always|never, git.erase never|trash)')
    .argument('[name]', 'the setting')
    .argument('[value]', 'its new value')
    .addOption(jsonOption())
    .action(async (name, value, options) => {
      const { SETTINGS, saveSetting, setting, settingName } = await import('./config.js');
      if (value !== undefined) await saveSetting(name, value);
      const names = name === undefined ? /** @type {(keyof typeof SETTINGS)[]} */ (Object.keys(SETTINGS)) : [settingName(name)];
      /** @type {Record<string, string>} */
      const values = {};
      for (const each of names) values[each] = await setting(each);
      print(values, options.json, (data) =>
        Object.entries(data)
          .map(
            ([key, current]) =>
              `${key} = ${current}${name === undefined ? `\t# ${SETTINGS[/** @type {keyof typeof SETTINGS} */ (key)].about}` : ''}\n`,
          )
          .join(''),
      );
    });
}
