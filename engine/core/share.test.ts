import { describe, expect, it } from 'vitest';
import { inputsFromQuery } from './share.js';

describe('share-link inputs', () => {
  it("reads the batch column names of the state's inputs, with their types", () => {
    const q = new URLSearchParams('county=kings&value=%24800%2C000&class=class1&homestead=true&veteranDisability=50&year=2025&melloRoos=900');
    expect(inputsFromQuery(q, 'NY')).toEqual({
      county: 'kings',
      inputs: { value: 800000, year: 2025, propertyClass: 'class1', homestead: true, veteranDisability: 50 },
    });
  });
  it('leaves out what is not valid for its input, and inputs of other states', () => {
    const q = new URLSearchParams('county=harris&value=400000&homestead=maybe&veteranDisability=55&over65=1&class=class1');
    expect(inputsFromQuery(q, 'TX')).toEqual({ county: 'harris', inputs: { value: 400000, over65: true } });
  });
  it('no county slug or no value above 0: nothing to show', () => {
    expect(inputsFromQuery(new URLSearchParams('value=300000'), 'TX')).toBeNull();
    expect(inputsFromQuery(new URLSearchParams('county=../x&value=300000'), 'TX')).toBeNull();
    expect(inputsFromQuery(new URLSearchParams('county=harris&value=abc'), 'TX')).toBeNull();
    expect(inputsFromQuery(new URLSearchParams('county=harris&value=0'), 'TX')).toBeNull();
  });
});
