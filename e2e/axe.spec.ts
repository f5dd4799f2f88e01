import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';

// The accessibility check the views specs rely on can fail: a page with an image without
// alternative text and a button without a name reports both, each with its element.
test('the axe check reports serious and critical violations with their elements', async ({ page }) => {
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>t</title></head><body><main>' +
      '<img id="no-alt" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button id="no-name"></button>' +
      '</main></body></html>',
  );
  const violations = await seriousViolations(page);
  expect(violations).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^image-alt \(critical\): #no-alt$/),
      expect.stringMatching(/^button-name \(critical\): #no-name$/),
    ]),
  );
});
