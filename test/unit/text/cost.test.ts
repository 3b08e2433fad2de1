import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { costDetails, formatCost, inferCurrency, parseCostInput } from '../../../src/domain/text/cost.ts';

// What the event serializer does with a stored cost.
function render(input: unknown, freeWord = 'Free') {
  const values = parseCostInput(input);
  const { symbol, position } = inferCurrency(values);
  return { details: costDetails(values, symbol, position), cost: formatCost(values, symbol, position, freeWord) };
}

describe('parseCostInput', () => {
  it('stores a string as one value, verbatim', () => {
    assert.deepEqual(parseCostInput('10 - 20'), ['10 - 20']);
  });

  it('stores a number as its decimal text', () => {
    assert.deepEqual(parseCostInput(12.5), ['12.5']);
    assert.deepEqual(parseCostInput(0), ['0']);
  });

  it('stores an array as several values', () => {
    assert.deepEqual(parseCostInput(['0$', 20, '30$']), ['0$', '20', '30$']);
  });

  it('strips tags and decodes entities', () => {
    assert.deepEqual(parseCostInput('<b>15</b> &euro; &amp; up'), ['15 € & up']);
    assert.deepEqual(parseCostInput('<script>x</script>5'), ['5']);
  });

  it('gives [] for empty input and skips empty or non-scalar entries', () => {
    for (const empty of [undefined, null, '', '   ', [], [''], true, { a: 1 }, Number.NaN]) {
      assert.deepEqual(parseCostInput(empty), []);
    }
    assert.deepEqual(parseCostInput(['', '5', null, ['6']]), ['5']);
  });
});

describe('inferCurrency', () => {
  it('finds a symbol after the number', () => {
    assert.deepEqual(inferCurrency(['20$']), { symbol: '$', position: 'postfix' });
    assert.deepEqual(inferCurrency(['10 USD']), { symbol: 'USD', position: 'postfix' });
  });

  it('finds a symbol before the number', () => {
    assert.deepEqual(inferCurrency(['€15', '€25']), { symbol: '€', position: 'prefix' });
  });

  it('ignores the text between two numbers of one value', () => {
    assert.deepEqual(inferCurrency(['10 - 20']), { symbol: '', position: '' });
    assert.deepEqual(inferCurrency(['$10 - $20']), { symbol: '$', position: 'prefix' });
  });

  it('gives nothing when values disagree or carry no symbol', () => {
    assert.deepEqual(inferCurrency(['€15', '25$']), { symbol: '', position: '' });
    assert.deepEqual(inferCurrency(['€15', '25']), { symbol: '', position: '' });
    assert.deepEqual(inferCurrency(['23']), { symbol: '', position: '' });
    assert.deepEqual(inferCurrency([]), { symbol: '', position: '' });
  });

  it('gives nothing for text on both sides of the numbers', () => {
    assert.deepEqual(inferCurrency(['$10 USD']), { symbol: '', position: '' });
  });

  it('skips values without a number', () => {
    assert.deepEqual(inferCurrency(['Free', '10$']), { symbol: '$', position: 'postfix' });
    assert.deepEqual(inferCurrency(['Free']), { symbol: '', position: '' });
  });
});

describe('costDetails', () => {
  it('has the keys in the reference order', () => {
    assert.deepEqual(Object.keys(costDetails(['20$'], '$', 'postfix')), ['currency_symbol', 'currency_code', 'currency_position', 'values']);
  });

  it('always has an empty currency code', () => {
    assert.equal(costDetails(['€15'], '€', 'prefix').currency_code, '');
  });

  it('lists every number as a string, deduplicated and sorted ascending', () => {
    assert.deepEqual(costDetails(['30$', '0$', '20$', '20$'], '$', 'postfix').values, ['0', '20', '30']);
    assert.deepEqual(costDetails(['100', '9'], '', '').values, ['9', '100']);
    assert.deepEqual(costDetails(['10 - 20'], '', '').values, ['10', '20']);
  });

  it('accepts "," or "." as decimal separator and writes "."', () => {
    assert.deepEqual(costDetails(['12,50 €', '7.5 €'], '€', 'postfix').values, ['7.5', '12.50']);
  });

  it('reads repeated or mixed separators as thousands grouping', () => {
    assert.deepEqual(costDetails(['1,000,000', '1.000,50', '2,000.25'], '', '').values, ['1000.50', '2000.25', '1000000']);
  });

  it('uses the slug of a value without a number', () => {
    assert.deepEqual(costDetails(['Donation'], '', '').values, ['donation']);
    assert.deepEqual(costDetails(['Pay what you want', '5'], '', '').values, ['5', 'pay-what-you-want']);
  });

  it('gives [] without cost', () => {
    assert.deepEqual(costDetails([], '', '').values, []);
  });
});

describe('formatCost and cost_details: the §3.4 examples', () => {
  it('"20$"', () => {
    assert.deepEqual(render('20$'), {
      details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] },
      cost: '20$',
    });
  });

  it('"23" without symbol', () => {
    assert.deepEqual(render('23'), {
      details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['23'] },
      cost: '$23',
    });
  });

  it('["0$","20$","30$"]', () => {
    assert.deepEqual(render(['0$', '20$', '30$']), {
      details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['0', '20', '30'] },
      cost: 'Free – 30$',
    });
  });

  it('"10 - 20"', () => {
    assert.deepEqual(render('10 - 20').cost, '$10 – $20');
  });

  it('["€15","€25"]', () => {
    assert.deepEqual(render(['€15', '€25']), {
      details: { currency_symbol: '€', currency_code: '', currency_position: 'prefix', values: ['15', '25'] },
      cost: '€15 – €25',
    });
  });

  it('"10 USD"', () => {
    assert.deepEqual(render('10 USD').cost, '10USD');
  });

  it('"Free" and "Donation" stay as written', () => {
    assert.deepEqual(render('Free'), {
      details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['free'] },
      cost: 'Free',
    });
    assert.deepEqual(render('Donation'), {
      details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['donation'] },
      cost: 'Donation',
    });
  });

  it('no cost', () => {
    assert.deepEqual(render(''), {
      details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      cost: '',
    });
  });
});

describe('formatCost', () => {
  it('writes 0 with the translated free word', () => {
    assert.equal(formatCost(['0'], '', '', 'Gratis'), 'Gratis');
    assert.equal(formatCost(['0.00', '15'], '€', 'prefix', 'Gratis'), 'Gratis – €15');
  });

  it('gives a single text when min equals max', () => {
    assert.equal(formatCost(['5$', '5$'], '$', 'postfix', 'Free'), '5$');
  });

  it('uses the stored symbol on the stored side, $ before the number when none', () => {
    assert.equal(formatCost(['7'], 'kr', 'postfix', 'Free'), '7kr');
    assert.equal(formatCost(['7'], '£', 'prefix', 'Free'), '£7');
    assert.equal(formatCost(['7'], '', '', 'Free'), '$7');
  });

  it('takes min and max over all values, ignoring words', () => {
    assert.equal(formatCost(['20', 'Free', '5 - 50'], '', '', 'Free'), '$5 – $50');
  });

  it('joins several values without any number', () => {
    assert.equal(formatCost(['Free', 'Donation'], '', '', 'Free'), 'Free, Donation');
  });
});
