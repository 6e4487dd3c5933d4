// The panel's entry point: its styles and the app, rendered into #app.
import { render } from 'preact';
import './styles.css';
import { App } from './app.tsx';
import { applyBrand } from './branding.ts';

applyBrand();

render(<App />, document.getElementById('app')!);
