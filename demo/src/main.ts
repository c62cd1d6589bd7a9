import { makeGreeting } from './greeting';
import { renderReport, type Task } from './report';

const tasks: Task[] = [
  { title: 'Write the README', status: 'done' },
  { title: 'Try the editor tools', status: 'doing' },
  { title: 'Rename makeGreeting', status: 'todo' },
];

console.log(makeGreeting('Ada', new Date().getHours()));
console.log(renderReport('Ada', tasks, new Date()));
