export { jsoncValueRange, type JsonPath, removeJsoncProperty, setJsoncValue } from './jsoncEdit';
export { effortSetting, readSetting, settingIssues, type SettingName, type SettingRead, SETTINGS, SETTINGS_SECTION, type SettingValue } from './registry';
export { ReportedOnce } from './reportedOnce';
