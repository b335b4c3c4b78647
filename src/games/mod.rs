pub mod pente;
