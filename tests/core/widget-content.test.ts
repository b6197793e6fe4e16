/** Which messages become widgets and the first submessage they start from (the reference's widget.py). */
import { widgetFromContent } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { pythonJson } from '../../packages/core/src/widgets/python-json.js';
import { widgetSubmessageContent } from '../../packages/core/src/widgets/content.js';

describe('widgetFromContent', () => {
  it('a poll: the rest of the first line is the question, each further non-blank line an option without its list marker', () => {
    expect(widgetFromContent('/poll What for lunch?\n- Pizza\n* Soup\n\n  Salad  \n-')).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'What for lunch?', options: ['Pizza', 'Soup', 'Salad'] },
    });
  });

  it('a poll with nothing else has an empty question and no options', () => {
    expect(widgetFromContent('/poll')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: [] } });
    // The first line break right after the command leaves the question empty; the next lines are options.
    expect(widgetFromContent('/poll\nA\nB')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: ['A', 'B'] } });
  });

  it('a to-do list: a title, then tasks with an optional description after the first ": "', () => {
    expect(widgetFromContent('/todo Release\n- Tag: on main: today\n* Announce\nShip :rocket:')).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Release',
        tasks: [
          { task: 'Tag', desc: 'on main: today' },
          { task: 'Announce', desc: '' },
          { task: 'Ship :rocket:', desc: '' },
        ],
      },
    });
  });

  it('only a first word that is exactly /poll or /todo makes a widget', () => {
    for (const content of ['/polls Q', ' /poll Q', 'poll Q', 'hello /poll', '/me waves', '/todolist', '/rsvp x', '']) {
      expect(widgetFromContent(content)).toBeUndefined();
    }
    expect(widgetFromContent('/todo\tTabs')?.extra_data).toEqual({ task_list_title: 'Tabs', tasks: [] });
  });
});

describe('the stored form', () => {
  it('is json.dumps text: spaced separators, non-ASCII escaped', () => {
    expect(widgetSubmessageContent({ widget_type: 'poll', extra_data: { question: 'Café?', options: ['Oui 👍', 'No'] } })).toBe(
      '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9?", "options": ["Oui \\ud83d\\udc4d", "No"]}}',
    );
    expect(JSON.parse(pythonJson({ a: ['x\n"y"', 1, true, null] }))).toEqual({ a: ['x\n"y"', 1, true, null] });
  });
});
