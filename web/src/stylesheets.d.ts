// Stylesheets are imported for their side effect (Vite puts them on the page); they export nothing to type.
declare module "*.css";
